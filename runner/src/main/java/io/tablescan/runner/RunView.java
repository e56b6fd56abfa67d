package io.tablescan.runner;

import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.time.Duration;

/** What a run shows while it runs: the command's progress line, or nothing (the bench, tests). */
public interface RunView {
    /** Shows nothing, and samples the totals every second. */
    RunView SILENT = new RunView() {};

    /** How often {@link #progress} is called. */
    default Duration interval() {
        return Duration.ofSeconds(1);
    }

    /** The scan was seeded: its totals follow. */
    default void header(ScanSpec spec) {}

    /** The same job runs on the cluster (or this very scan ended a moment ago): followed instead of started. */
    default void attached(ScanTotals running) {}

    /** The scan's totals so far. */
    default void progress(ScanTotals totals) {}

    /** A rerun resumes the local job's scan: one line before its progress. */
    default void resuming(String line) {}

    /** Ctrl-C stopped a local job's run before the scan ended: the scan is kept for a rerun to resume. */
    default void pausing() {}

    /** Ctrl-C stopped the run before the scan ended: ends the progress line and says the run stops. */
    default void stopping() {}
}
