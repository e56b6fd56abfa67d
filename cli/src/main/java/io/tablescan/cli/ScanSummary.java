package io.tablescan.cli;

import static io.tablescan.cli.ProgressPrinter.plural;
import static io.tablescan.cli.ProgressPrinter.selection;
import static io.tablescan.cli.ProgressPrinter.target;

import io.tablescan.runtime.ItemKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** A scan's summary when it ends or is looked at: its lines, hints and next --since, and the exit code they imply. */
final class ScanSummary {
    /**
     * How a scan's lines name it and what they offer.
     *
     * @param filesSource for an import, the export it reads ("the export in /backups/x"): its rows come from files,
     *     so it has no partitions counted and no next --since; null otherwise
     * @param purpose what a scan into a command's private topic is for (an export's first stage), named instead of
     *     the topic, which is deleted at the end; null otherwise
     * @param nextSince whether the summary gives the next incremental copy's --since
     * @param readsOnly a scan that writes to no table or sink of the user's (verify --from): no "rows written"
     * @param hints where the workers run, for the hints on failed items
     */
    record Options(String filesSource, String purpose, boolean nextSince, boolean readsOnly,
            ProgressPrinter.Hints hints) {
        static final Options DEFAULT = new Options(null, null, true, false, ProgressPrinter.Hints.local());

        boolean fromFiles() {
            return filesSource != null;
        }

        Options withFiles(String source) {
            return new Options("the export in " + source, purpose, nextSince, readsOnly, hints);
        }

        Options withPurpose(String purpose, boolean nextSince) {
            return new Options(filesSource, purpose, nextSince, readsOnly, hints);
        }

        Options withReadsOnly() {
            return new Options(filesSource, purpose, nextSince, true, hints);
        }

        Options withHints(ProgressPrinter.Hints hints) {
            return new Options(filesSource, purpose, nextSince, readsOnly, hints);
        }
    }

    /**
     * How far before a complete scan's start the next incremental copy begins. A row's Timestamp is the
     * service's clock when it committed the write, not this machine's: a write under way when the scan
     * started, or a clock ahead of the service's, can leave a Timestamp earlier than the start in a row this
     * scan did not read. Rows written in the overlap are copied again, which upsert-replace makes harmless.
     */
    static final Duration SINCE_OVERLAP = Duration.ofMinutes(15);

    private final PrintStream out;
    private final Options options;

    ScanSummary(PrintStream out, Options options) {
        this.out = out;
        this.options = options;
    }

    /** The --since of the next incremental copy after a complete scan of this spec. */
    static String nextSince(ScanSpec spec) {
        return DateTimeFormatter.ISO_INSTANT.format(
                Instant.ofEpochMilli(spec.getCreatedAtMillis()).minus(SINCE_OVERLAP).truncatedTo(ChronoUnit.SECONDS));
    }

    /** Prints the summary; returns the exit code: 0 completed, 1 failures or not ended, 5 cancelled. */
    int print(ScanTotals t) {
        if (t.spec() != null && t.spec().getCount()) {
            return countSummary(t);
        }
        if (t.spec() != null && t.spec().getVerify()) {
            return verifySummary(t);
        }
        String purpose = options.purpose();
        out.printf("scan %s %s%n", t.scanId(), describe(t));
        if (t.spec() != null) {
            out.printf("  tables:        %s -> %s%n", source(t.spec()), purpose != null ? purpose : target(t.spec(), true));
        }
        out.printf("  rows read:     %,d %s%n", t.rowsRead(), options.fromFiles() ? "from the export's files"
                : "in " + plural(t.partitions(), "partition"));
        if (!options.readsOnly()) {
            out.printf("  rows written:  %,d%n", t.rowsWritten());
        }
        out.printf("  duration:      %.1f s%n", t.elapsedMillis() / 1000.0);
        out.printf("  rows/s:        %,.0f%s%n", t.rowsPerSecond(), t.ended() ? " (average)" : " (recent)");
        work(t);
        emptyHint(t);
        nextSinceLine(t);
        errors(t);
        return exitCode(t);
    }

    /** The source as a line names it: account/table, or for an import the export it reads. */
    private String source(ScanSpec spec) {
        return options.fromFiles() ? options.filesSource()
                : spec.getSource().getAccount() + "/" + spec.getSource().getTable();
    }

    /**
     * The watermark for the next incremental run, only after a scan that completed with no failed item and only for
     * jobs that take --since: the rows of a failed item were not copied, and a run from a later time would never
     * read them.
     */
    private void nextSinceLine(ScanTotals t) {
        if (t.spec() == null || options.fromFiles() || !options.nextSince() || t.spec().getMirror() || !t.complete()) {
            return;
        }
        if (t.state() == ScanState.COMPLETED && t.itemsFailed() == 0) {
            out.printf("  next --since:  %s (for an incremental copy: this scan's start less %d minutes)%n",
                    nextSince(t.spec()), SINCE_OVERLAP.toMinutes());
        } else {
            out.println("  next --since:  none: not every row was copied; " + (options.hints().inProcess()
                    ? "run the same command again" : "retry the failed items (see below)") + ": the run that completes "
                    + "prints it");
        }
    }

    /** A count's summary: its scan, then the count itself on the last line (exact only when completed). */
    private int countSummary(ScanTotals t) {
        out.printf("scan %s %s%n", t.scanId(), describe(t));
        out.printf("  table:         %s/%s%n", t.spec().getSource().getAccount(), t.spec().getSource().getTable());
        out.printf("  duration:      %.1f s%n", t.elapsedMillis() / 1000.0);
        out.printf("  rows/s:        %,.0f%s%n", t.rowsPerSecond(), t.ended() ? " (average)" : " (recent)");
        work(t);
        emptyHint(t);
        errors(t);
        out.println(countLine(t));
        return exitCode(t);
    }

    /** A verify's scan: the tables compared, its pace and work; the differences follow (VerifyCommand). */
    private int verifySummary(ScanTotals t) {
        out.printf("scan %s %s%n", t.scanId(), describe(t));
        out.printf("  tables:        %s/%s compared with %s%n", t.spec().getSource().getAccount(),
                t.spec().getSource().getTable(), target(t.spec(), true));
        out.printf("  duration:      %.1f s%n", t.elapsedMillis() / 1000.0);
        out.printf("  rows/s:        %,.0f%s%n", t.rowsPerSecond(), t.ended() ? " (average)" : " (recent)");
        work(t);
        errors(t);
        return exitCode(t);
    }

    /** "1,237 rows in 412 partitions" when exact; what was counted so far when not. */
    static String countLine(ScanTotals t) {
        String count = plural(t.rowsRead(), "row") + " in " + plural(t.partitions(), "partition");
        return t.state() == ScanState.COMPLETED ? count : "not exact (the count did not complete): at least " + count;
    }

    /** The scan's items and requests. */
    private void work(ScanTotals t) {
        String purpose = options.purpose();
        out.printf("  items:         %s, %s, %s (deepest chain %d)%n",
                plural(t.done(ItemKind.PREFIX_QUERY), "prefix query", "prefix queries"),
                plural(t.done(ItemKind.PARTITION_QUERY), "partition query", "partition queries"),
                plural(t.done(ItemKind.ENTITY_BATCH), "entity batch", "entity batches"), t.maxDepth());
        out.printf("  open items:    %,d of %,d emitted; %,d failed, %,d skipped, %,d retried%n", t.openItems(),
                t.itemsEmitted(), t.itemsFailed(), t.itemsSkipped(), t.itemsRetried());
        // A topic takes records in the worker's transaction, not requests: say what it got.
        boolean topic = purpose == null && t.spec() != null && t.spec().getSink() != null
                && t.spec().getSink().getType().equals(TargetOptions.TOPIC);
        String written = topic ? plural(t.rowsWritten(), "record") + " to the topic"
                : purpose != null ? plural(t.rowsWritten(), "row") + " staged in Kafka"
                : plural(t.writeRequests(), "write") + " to the destination";
        boolean count = t.spec() != null && t.spec().getCount(); // writes nothing
        // A verify or mirror reads both tables, counted together.
        boolean both = t.spec() != null && (t.spec().getVerify() || t.spec().getMirror()
                || t.spec().getChangedOnly());
        out.printf("  requests:      %s of %s%s; %,d retried (%,d throttled)%n", plural(t.readRequests(), "read"),
                both ? "the source and the destination" : "the source", count || t.spec() != null && t.spec().getVerify()
                        ? "" : ", " + written, t.retries(), t.throttles());
    }

    /** A complete scan that read no row: say why, so an empty result is not taken for a fault. */
    private void emptyHint(ScanTotals t) {
        if (t.complete() && t.rowsRead() == 0 && t.spec() != null) {
            out.println("  no rows:       " + selection(t.spec()).map(s -> "no row of the source matches the selection ("
                    + s + ")").orElse("the source table is empty"));
        }
    }

    private void errors(ScanTotals t) {
        for (String error : t.errors()) {
            out.println("  error:         " + error);
        }
        if (t.itemsFailed() > 0) {
            out.println("  " + failureHint(t));
        }
    }

    /** What to do about failed items, with commands that work where this scan ran. */
    String failureHint(ScanTotals t) {
        String id = t.scanId();
        ProgressPrinter.Hints hints = options.hints();
        String kafka = hints.kafka();
        String failed = plural(t.itemsFailed(), "failed item");
        if (hints.inProcess() && t.spec() != null && t.spec().getCount()) {
            return failed + ": fix the cause (errors above), then count again";
        }
        if (hints.inProcess() && t.spec() != null && t.spec().getVerify()) {
            return failed + ": fix the cause (errors above), then verify again";
        }
        if (hints.inProcess()) { // this command's record of the failures ends with it
            return failed + ": fix the cause (errors above), then run the same copy again: it is idempotent "
                    + "(rows already copied are rewritten, not duplicated)";
        }
        String failures = "`tablescan failures " + id + " --kafka " + kafka + "`";
        String retry = "`tablescan retry " + id + " --kafka " + kafka + " --wait`";
        return failed + " are parked: see " + failures + ", then after fixing the cause " + retry;
    }

    /** The one line for a copy stopped by Ctrl-C: what the destination holds and how to finish. */
    static String interrupted(ScanTotals t, ScanSpec spec) {
        String dest = spec.getDestination() != null ? "table " + spec.getDestination().getTable()
                : spec.getSink() != null ? target(spec, false) : "the destination";
        if (!t.started()) {
            return "interrupted before the copy started: nothing was copied to " + dest;
        }
        return String.format("interrupted: %s holds part of the copy (%s written when stopped); run the same "
                + "copy again to finish it: it is idempotent", dest, plural(t.rowsCopied(), "row"));
    }

    static String describe(ScanTotals t) {
        if (!t.started()) {
            return "is unknown to the ledger";
        }
        return switch (t.state()) {
            case COMPLETED -> "completed";
            case COMPLETED_WITH_FAILURES -> "completed with " + plural(t.itemsFailed(), "failed item");
            case CANCELLED -> "was cancelled" + (t.openItems() > 0 ? " (" + plural(t.openItems(), "item") + " still draining)" : "");
            case RUNNING -> "did NOT complete (" + plural(t.openItems(), "open item") + ")";
        };
    }

    static int exitCode(ScanTotals t) {
        if (!t.started()) {
            return UserError.FAILED;
        }
        return t.state() == ScanState.COMPLETED ? 0 : t.state() == ScanState.CANCELLED ? UserError.CANCELLED : UserError.FAILED;
    }
}
