package io.tablescan.cli;

import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * copy --mirror, its dry run (a verify whose findings are told as what the mirror would do), and copy
 * --changed-only (a mirror that deletes nothing).
 */
final class MirrorRun {
    private MirrorRun() {}

    /** {@code onWorkers}: the cluster's workers may run it (see {@link CliRun#run}). */
    static int run(KafkaSettings cluster, boolean onWorkers, Accounts accounts, Map<String, String> env, ScanSpec spec,
            Path report, boolean dryRun, JobState state) {
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local());
        AtomicReference<DifferenceReport> found = new AtomicReference<>();
        try (Interrupt interrupt = Interrupt.onSigint()) {
            CopyRun.Outcome outcome = CliRun.run(cluster, onWorkers, accounts, spec, CliRun.options(printer, interrupt,
                    env).withState(state).withCapsOf(spec) // the scan run: a resumed one is the first run's
                    .withEnded((kafka, totals) -> found.set(DifferenceReport.read(kafka, totals.scanId(), report))),
                    printer);
            ScanTotals t = outcome.totals();
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, dryRun ? "interrupted: the dry run did not finish (nothing "
                        + "was changed)" : state != null ? StateOptions.resumeHint(state) : ScanSummary.interrupted(t, spec, outcome.partial()));
            }
            return printer.differences(found.get()).summary(t); // the job's lines: what it wrote and deleted
        }
    }
}
