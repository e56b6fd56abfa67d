package io.tablescan.cli;

import io.tablescan.progress.ScanTotals;
import java.io.PrintStream;

/** Prints a scan's progress and its final summary. */
final class ProgressPrinter {
    private final PrintStream out;

    ProgressPrinter(PrintStream out) {
        this.out = out;
    }

    void progressHeader(io.tablescan.schema.ScanSpec spec) {
        out.printf("scan %s: %s -> %s, page size %d%n", spec.getScanId(), spec.getSource().getTable(),
                spec.getDestination() == null ? "(no destination)" : spec.getDestination().getTable(), spec.getPageSize());
    }

    void progress(ScanTotals t) {
        if (!t.started()) {
            out.println("waiting for the scan to start...");
            return;
        }
        double seconds = Math.max(0.001, t.elapsedMillis() / 1000.0);
        out.printf("  %,d rows read, %,d written (%,.0f rows/s), %,d open items%n", t.rowsRead(), t.rowsWritten(),
                t.rowsWritten() / seconds, t.openItems());
    }

    /** Prints the summary; returns the exit code: 0 only when complete without failures. */
    int summary(ScanTotals t, double seconds) {
        out.printf("scan %s %s%n", t.scanId(), !t.complete() ? "did NOT complete"
                : t.itemsFailed() > 0 ? "completed with " + t.itemsFailed() + " failed items" : "completed");
        out.printf("  rows read:     %,d%n", t.rowsRead());
        out.printf("  rows written:  %,d%n", t.rowsWritten());
        out.printf("  duration:      %.1f s%n", seconds);
        out.printf("  rows/s:        %,.0f%n", t.rowsWritten() / Math.max(seconds, 0.001));
        out.printf("  items:         %,d prefix queries, %,d partition queries, %,d entity batches (deepest chain %d)%n",
                t.done(0), t.done(1), t.done(2), t.maxDepth());
        out.printf("  requests:      %,d table reads; %,d retried requests in this process%n", t.requests(),
                io.tablescan.table.RetryingTableStore.retries());
        for (String error : t.errors()) {
            out.println("  failure:       " + error);
        }
        if (t.itemsFailed() > 0) {
            out.println("  failed items are parked in the tablescan.dead-letters topic");
        }
        return t.complete() && t.itemsFailed() == 0 ? 0 : UserError.FAILED;
    }
}
