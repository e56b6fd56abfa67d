package io.tablescan.rate;

import io.tablescan.schema.RateDemand;
import java.util.List;

/** Where processes publish their demands on capped scans and read each other's ({@link DemandBoard}; tests' own). */
interface Demands extends AutoCloseable {
    String process();

    void publish(List<RateDemand> mine);

    /** The demands of every process (this one's as the others see it) published in the last few seconds. */
    List<RateDemand> demands(String scanId, Direction direction, long nowMillis);

    /** The cap an operator set while the scan ran (0: none), or null when none did. */
    Long throttle(String scanId, Direction direction);

    @Override
    void close();
}
