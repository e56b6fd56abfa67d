package io.tablescan.cli;

import io.tablescan.metrics.MetricsServer;
import io.tablescan.progress.ScanStarter;
import io.tablescan.progress.ScanStatusReader;
import io.tablescan.progress.ScanTotals;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.table.Accounts;
import io.tablescan.table.FaultInjectingTableStore;
import java.time.Duration;

/** A copy with the three workers and the ledger in this process: seed, follow until it ends, stop. */
final class CopyRun {
    private CopyRun() {}

    record Outcome(ScanTotals totals, double seconds) {}

    static Outcome run(String bootstrapServers, Accounts accounts, ScanSpec spec, ProgressPrinter printer,
            Duration timeout) {
        return run(KafkaSettings.of(bootstrapServers), accounts, spec, printer, timeout);
    }

    static Outcome run(KafkaSettings kafka, Accounts accounts, ScanSpec spec, ProgressPrinter printer, Duration timeout) {
        WorkerSettings settings;
        try { // TABLESCAN_FAULT_RATE applies to local copies too, so anyone can watch retries at work
            settings = WorkerSettings.local(kafka, accounts)
                    .withFaults(FaultInjectingTableStore.Faults.fromEnvironment(System.getenv()));
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        return run(settings, spec, printer, timeout);
    }

    static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout) {
        return run(settings, spec, printer, timeout, printer.interval(), printer::progress);
    }

    /** Seeds, then calls {@code each} with the scan's totals every {@code interval} until it ends. */
    static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout,
            Duration interval, java.util.function.Consumer<ScanTotals> each) {
        KafkaSettings kafka = settings.kafka();
        try (LocalPipeline pipeline = LocalPipeline.start(settings);
                MetricsServer metrics = metricsServer(pipeline); // null when not asked for
                ScanStatusReader reader = new ScanStatusReader(kafka)) {
            long start = System.nanoTime();
            ScanStarter.start(kafka, spec);
            printer.progressHeader(spec);
            ScanTotals totals = reader.await(spec.getScanId(), ScanTotals::ended, timeout, interval, each);
            return new Outcome(totals, (System.nanoTime() - start) / 1e9);
        }
    }

    /** Metrics and health of a local copy only when asked for with TABLESCAN_METRICS_PORT (workers: always). */
    private static MetricsServer metricsServer(LocalPipeline pipeline) {
        if (!System.getenv().containsKey(MetricsServer.PORT)) {
            return null;
        }
        try {
            return MetricsServer.fromEnvironment(System.getenv(), pipeline).orElse(null);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }

    /** Follows a scan until the ledger says it ended (completed, with failures, or cancelled). */
    static ScanTotals follow(ScanStatusReader reader, String scanId, ProgressPrinter printer, Duration timeout) {
        return reader.await(scanId, ScanTotals::ended, timeout, printer.interval(), printer::progress);
    }
}
