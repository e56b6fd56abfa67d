package io.tablescan.it;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.function.Predicate;

/** Waits, with a deadline, for what the ledger records about a scan. */
final class ScanAwait {
    private ScanAwait() {}

    static ScanTotals ended(KafkaSettings kafka, String scanId, Duration timeout) {
        return until(kafka, scanId, ScanTotals::ended, timeout);
    }

    static ScanTotals until(KafkaSettings kafka, String scanId, Predicate<ScanTotals> condition, Duration timeout) {
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            return reader.await(scanId, condition, timeout, Duration.ofSeconds(5), t -> { });
        }
    }
}
