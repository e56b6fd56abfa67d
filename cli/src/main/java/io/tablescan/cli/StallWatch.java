package io.tablescan.cli;

import io.tablescan.status.ScanTotals;
import java.util.Optional;

/**
 * Notices when a wait on a cluster's scan cannot end by itself: no ledger records the scan, or nothing of it
 * finishes (no worker running). Says so once per stall, naming what to start, instead of waiting in silence.
 */
final class StallWatch {
    static final long NO_LEDGER_MILLIS = 20_000;
    static final long NO_PROGRESS_MILLIS = 30_000;

    private final String kafka;
    private long lastChangeMillis;
    private long lastFinished = -1;
    private boolean told;

    /** {@code kafka}: the bootstrap servers, named in the commands it suggests. */
    StallWatch(String kafka, long nowMillis) {
        this.kafka = kafka;
        this.lastChangeMillis = nowMillis;
    }

    /** A line to show now, at most once until the scan moves again. */
    Optional<String> check(ScanTotals t, long nowMillis) {
        long finished = t.itemsDone() + t.itemsFailed() + t.itemsSkipped();
        if (t.started() && finished != lastFinished) {
            lastFinished = finished;
            lastChangeMillis = nowMillis;
            told = false;
            return Optional.empty();
        }
        long still = nowMillis - lastChangeMillis;
        if (told || t.ended()) {
            return Optional.empty();
        }
        if (!t.started() && still >= NO_LEDGER_MILLIS) {
            told = true;
            return Optional.of(String.format("no ledger has recorded scan %s in %d s: is one running? Start one next "
                    + "to the workers: `./tablescan ledger --kafka %s`", t.scanId(), still / 1000, kafka));
        }
        if (t.started() && still >= NO_PROGRESS_MILLIS) {
            told = true;
            return Optional.of(String.format("no item of scan %s has finished in %d s: are workers running? Start "
                    + "them with `KAFKA_BOOTSTRAP_SERVERS=%s ./tablescan worker discovery` (and `worker partition`, "
                    + "`worker copy`), and a ledger with `./tablescan ledger --kafka %s`", t.scanId(), still / 1000,
                    kafka, kafka));
        }
        return Optional.empty();
    }
}
