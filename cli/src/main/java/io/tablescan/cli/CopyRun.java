package io.tablescan.cli;

import io.tablescan.progress.ScanStarter;
import io.tablescan.progress.ScanTotals;
import io.tablescan.progress.ScanWatcher;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.table.Accounts;
import java.time.Duration;

/** A copy with the three workers in this process: seed, follow until complete, stop the workers. */
final class CopyRun {
    private CopyRun() {}

    record Outcome(ScanTotals totals, double seconds) {}

    static Outcome run(String bootstrapServers, Accounts accounts, ScanSpec spec, ProgressPrinter printer,
            Duration timeout) {
        WorkerSettings settings = WorkerSettings.local(bootstrapServers, accounts);
        KafkaSettings kafka = settings.kafka();
        try (LocalPipeline pipeline = LocalPipeline.start(settings); ScanWatcher watcher = new ScanWatcher(kafka)) {
            long start = System.nanoTime();
            ScanStarter.start(kafka, spec);
            printer.progressHeader(spec);
            ScanTotals totals = watcher.await(spec.getScanId(), timeout, Duration.ofSeconds(2), printer::progress);
            return new Outcome(totals, (System.nanoTime() - start) / 1e9);
        }
    }
}
