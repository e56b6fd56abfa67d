package io.tablescan.cli;

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

/** copy --mirror, and its dry run (a verify whose findings are told as what the mirror would do). */
final class MirrorRun {
    private MirrorRun() {}

    static int run(KafkaSettings cluster, Accounts accounts, Map<String, String> env, ScanSpec spec, Path report,
            boolean dryRun) {
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local());
        AtomicReference<DifferenceReport> found = new AtomicReference<>();
        try (Interrupt interrupt = Interrupt.onSigint()) {
            CopyRun.Outcome outcome = CopyRun.runHere(cluster, accounts, env, spec, printer, interrupt,
                    (kafka, totals) -> found.set(DifferenceReport.read(kafka, spec.getScanId(), report)));
            ScanTotals t = outcome.totals();
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, dryRun ? "interrupted: the dry run did not finish (nothing "
                        + "was changed)" : ProgressPrinter.interrupted(t, spec));
            }
            int code = printer.summary(t);
            Map<DifferenceKind, String> labels = new EnumMap<>(DifferenceKind.class);
            labels.put(DifferenceKind.MISSING, dryRun ? "to write (missing)" : "written (were missing)");
            labels.put(DifferenceKind.DIFFERENT, dryRun ? "to write (different)" : "written (were different)");
            labels.put(DifferenceKind.EXTRA, dryRun ? "to delete" : "deleted");
            if (found.get() != null) {
                found.get().printFirst(System.out, labels, Map.of(DifferenceKind.MISSING, t.rowsMissing(),
                        DifferenceKind.DIFFERENT, t.rowsDiffering(), DifferenceKind.EXTRA, t.rowsExtra()));
            }
            boolean complete = t.state() == ScanState.COMPLETED;
            if (dryRun) {
                System.out.printf("%sdry run: the mirror would write %,d rows (%,d missing, %,d different) and delete "
                        + "%,d; nothing was changed%n", complete ? "" : "incomplete ", t.rowsMissing() + t.rowsDiffering(),
                        t.rowsMissing(), t.rowsDiffering(), t.rowsExtra());
            } else {
                System.out.printf("mirror: %,d rows were missing, %,d different (all %,d rewritten); %,d extra, %,d "
                        + "deleted%n", t.rowsMissing(), t.rowsDiffering(), t.rowsWritten(), t.rowsExtra(), t.rowsDeleted());
            }
            return code;
        }
    }
}
