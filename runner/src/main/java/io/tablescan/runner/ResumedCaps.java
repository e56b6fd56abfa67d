package io.tablescan.runner;

import io.tablescan.control.Throttle;
import io.tablescan.rate.Direction;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import java.util.Map;

/**
 * A resumed local scan takes this run's caps: they tune a run and are not part of the job (they do not count in
 * its key), so a rerun without {@code --max-rate} reads at full speed, and one with another cap keeps that one.
 */
final class ResumedCaps {
    private ResumedCaps() {}

    /**
     * Sets {@code limits} (rows/s by direction key; null: none) on {@code spec}'s scan by a throttle record where
     * its caps now differ; returns the line that says so ("reads uncapped (were 200 rows/s), ..."), or null.
     */
    static String apply(KafkaSettings kafka, ScanSpec spec, Map<String, Long> limits) {
        long read = limits == null ? 0 : limits.getOrDefault(Direction.READ.key, 0L);
        long write = limits == null ? 0 : limits.getOrDefault(Direction.WRITE.key, 0L);
        Map<String, Long> now = Throttle.current(kafka, spec);
        long wasRead = now.get(Direction.READ.key);
        long wasWrite = now.get(Direction.WRITE.key);
        if (read == wasRead && write == wasWrite) {
            return null;
        }
        Throttle.set(kafka, spec.getScanId(), read, write);
        return "this run's caps: reads " + rate(read) + (read == wasRead ? "" : " (were " + rate(wasRead) + ")")
                + ", writes " + rate(write) + (write == wasWrite ? "" : " (were " + rate(wasWrite) + ")");
    }

    private static String rate(long cap) {
        return cap == 0 ? "uncapped" : String.format("%,d rows/s", cap);
    }
}
