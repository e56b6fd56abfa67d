package io.tablescan.rate;

import io.tablescan.schema.RateDemand;
import java.util.List;

/**
 * Where processes publish their demands on capped scans and read each other's (the rate-demand topic, see
 * {@code io.tablescan.runtime.RateDemandBoard}; tests' own).
 */
public interface Demands extends AutoCloseable {
    /** A demand older than this is a process gone or idle. */
    long FRESH_MILLIS = 3000;

    String process();

    void publish(List<RateDemand> mine);

    /** The demands of every process (this one's as the others see it) published in the last few seconds. */
    List<RateDemand> demands(String scanId, Direction direction, long nowMillis);

    /** The cap an operator set while the scan ran (0: none), or null when none did. */
    Long throttle(String scanId, Direction direction);

    @Override
    void close();
}
