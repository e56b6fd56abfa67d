package io.tablescan.cli;

import io.tablescan.runner.CopyRun;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * copy --mirror, its dry run (a verify whose findings are told as what the mirror would do), and copy
 * --changed-only (a mirror that deletes nothing).
 */
final class MirrorRun {
    private MirrorRun() {}

    static int run(KafkaSettings cluster, Accounts accounts, Map<String, String> env, ScanSpec spec, Path report,
            boolean dryRun) {
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local());
        AtomicReference<DifferenceReport> found = new AtomicReference<>();
        try (Interrupt interrupt = Interrupt.onSigint()) {
            CopyRun.Outcome outcome = CopyRun.runHere(cluster, accounts, spec, CliRun.options(printer, interrupt, env)
                    .withEnded((kafka, totals) -> found.set(DifferenceReport.read(kafka, spec.getScanId(), report))));
            ScanTotals t = outcome.totals();
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, dryRun ? "interrupted: the dry run did not finish (nothing "
                        + "was changed)" : ScanSummary.interrupted(t, spec));
            }
            int code = printer.summary(t);
            Map<DifferenceKind, String> labels = new EnumMap<>(DifferenceKind.class);
            labels.put(DifferenceKind.MISSING, dryRun ? "to write (missing)" : "written (were missing)");
            labels.put(DifferenceKind.DIFFERENT, dryRun ? "to write (different)" : "written (were different)");
            boolean keeps = spec.getChangedOnly();
            labels.put(DifferenceKind.EXTRA, dryRun ? "to delete" : keeps ? "extra (kept)" : "deleted");
            if (found.get() != null) {
                found.get().printFirst(System.out, labels, Map.of(DifferenceKind.MISSING, t.rowsMissing(),
                        DifferenceKind.DIFFERENT, t.rowsDiffering(), DifferenceKind.EXTRA, t.rowsExtra()));
            }
            boolean complete = t.state() == ScanState.COMPLETED;
            long unchanged = Math.max(0, t.rowsRead() - t.rowsMissing() - t.rowsDiffering());
            if (dryRun) {
                System.out.printf("%sdry run: the mirror would write %s (%,d missing, %,d different), leave %,d "
                        + "unchanged and delete %,d; nothing was changed%n", complete ? "" : "incomplete ",
                        ProgressPrinter.plural(t.rowsMissing() + t.rowsDiffering(), "row"), t.rowsMissing(),
                        t.rowsDiffering(), unchanged, t.rowsExtra());
            } else { // only the rows that differ are written
                System.out.printf("%s: %s, %,d different (%,d written); %,d unchanged (not written); %,d extra, %s%n",
                        keeps ? "changed only" : "mirror",
                        ProgressPrinter.plural(t.rowsMissing(), "row was missing", "rows were missing"), t.rowsDiffering(),
                        t.rowsWritten(), unchanged, t.rowsExtra(), keeps ? "kept" : String.format("%,d deleted",
                                t.rowsDeleted()));
            }
            return code;
        }
    }
}
