package io.tablescan.cli;

import io.tablescan.progress.ScanTotals;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import java.io.PrintStream;
import java.time.Duration;

/**
 * Shows a scan's progress: a live bar redrawn in place on a terminal, plain periodic lines otherwise (logs,
 * pipes, CI), and the final summary with the exit code it implies.
 */
final class ProgressPrinter {
    private static final int BAR = 24;
    private final PrintStream out;
    private final boolean terminal;
    private boolean barShown;

    ProgressPrinter(PrintStream out) {
        this(out, out == System.out && Terminal.isInteractive());
    }

    ProgressPrinter(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** How often to report: a terminal bar is redrawn often, plain lines are kept few. */
    Duration interval() {
        return terminal ? Duration.ofMillis(500) : Duration.ofSeconds(5);
    }

    void progressHeader(ScanSpec spec) {
        out.printf("scan %s: %s -> %s, page size %d%n", spec.getScanId(), spec.getSource().getTable(),
                spec.getDestination() == null ? "(no destination)" : spec.getDestination().getTable(), spec.getPageSize());
    }

    void progress(ScanTotals t) {
        if (!t.started()) {
            if (!terminal) {
                out.println("  waiting for the ledger to record the scan...");
            }
            return;
        }
        String line = line(t);
        if (terminal) {
            out.print("\r" + bar(t) + " " + line + "\u001b[K");
            barShown = true;
        } else {
            out.println("  " + line);
        }
        out.flush();
    }

    static String line(ScanTotals t) {
        long seconds = t.elapsedMillis() / 1000;
        return String.format("%,d rows, %,.0f rows/s, %,d open items, %,d failed, %d:%02d", t.rowsCopied(),
                t.rowsPerSecond(), t.openItems(), t.itemsFailed(), seconds / 60, seconds % 60);
    }

    /** Items finished out of items known so far: the table's size is unknown until discovery ends. */
    static String bar(ScanTotals t) {
        long emitted = Math.max(1, t.itemsEmitted());
        double fraction = Math.min(1.0, (emitted - t.openItems()) / (double) emitted);
        int filled = (int) Math.round(fraction * BAR);
        return "[" + "#".repeat(filled) + ".".repeat(BAR - filled) + String.format("] %3.0f%%", fraction * 100);
    }

    /** Prints the summary; returns the exit code: 0 completed, 1 failures or not ended, 5 cancelled. */
    int summary(ScanTotals t) {
        if (barShown) {
            out.println();
            barShown = false;
        }
        out.printf("scan %s %s%n", t.scanId(), describe(t));
        if (t.spec() != null) {
            out.printf("  tables:        %s/%s -> %s%n", t.spec().getSource().getAccount(), t.spec().getSource().getTable(),
                    t.spec().getDestination() == null ? "(none)"
                            : t.spec().getDestination().getAccount() + "/" + t.spec().getDestination().getTable());
        }
        out.printf("  rows read:     %,d%n", t.rowsRead());
        out.printf("  rows written:  %,d%n", t.rowsWritten());
        out.printf("  duration:      %.1f s%n", t.elapsedMillis() / 1000.0);
        out.printf("  rows/s:        %,.0f%s%n", t.rowsPerSecond(), t.ended() ? " (average)" : " (recent)");
        out.printf("  items:         %,d prefix queries, %,d partition queries, %,d entity batches (deepest chain %d)%n",
                t.done(0), t.done(1), t.done(2), t.maxDepth());
        out.printf("  open items:    %,d of %,d emitted; %,d failed, %,d skipped, %,d retried%n", t.openItems(),
                t.itemsEmitted(), t.itemsFailed(), t.itemsSkipped(), t.itemsRetried());
        out.printf("  requests:      %,d table reads; %,d requests retried (%,d throttled)%n", t.requests(), t.retries(),
                t.throttles());
        for (String error : t.errors()) {
            out.println("  error:         " + error);
        }
        if (t.itemsFailed() > 0) {
            out.printf("  %,d failed items are parked: see `tablescan failures %s`, then `tablescan retry %s`%n",
                    t.itemsFailed(), t.scanId(), t.scanId());
        }
        return exitCode(t);
    }

    static String describe(ScanTotals t) {
        if (!t.started()) {
            return "is unknown to the ledger";
        }
        return switch (t.state()) {
            case COMPLETED -> "completed";
            case COMPLETED_WITH_FAILURES -> "completed with " + String.format("%,d", t.itemsFailed()) + " failed items";
            case CANCELLED -> "was cancelled" + (t.openItems() > 0 ? " (" + t.openItems() + " items still draining)" : "");
            case RUNNING -> "did NOT complete (" + String.format("%,d", t.openItems()) + " open items)";
        };
    }

    static int exitCode(ScanTotals t) {
        if (!t.started()) {
            return UserError.FAILED;
        }
        return t.state() == ScanState.COMPLETED ? 0 : t.state() == ScanState.CANCELLED ? UserError.CANCELLED : UserError.FAILED;
    }
}
