package io.tablescan.cli;

import io.tablescan.runtime.ItemKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Shows a scan's progress: a live bar redrawn in place on a terminal, plain periodic lines otherwise (logs,
 * pipes, CI), and the final summary with the exit code it implies.
 */
public final class ProgressPrinter {
    private static final int BAR = 24;
    private final PrintStream out;
    private final boolean terminal;
    private final LongSupplier clock;
    private long sinceMillis;
    private boolean barShown;
    /** An import's summary: its rows come from files, so it has no partitions counted and no next --since. */
    private boolean fromFiles;
    /** An import's source as the lines name it: the export's folder, or its container and prefix. */
    private String filesSource;
    /** What a scan into a command's private topic is for (an export's first stage), named instead of the topic. */
    private String purpose;
    private boolean nextSince = true;
    /** A scan that writes no table (verify --from): its summary has no rows written. */
    private boolean readsOnly;
    private Hints hints = Hints.local();
    private StallWatch stalls;

    /**
     * Where the scan's workers run, for the hints: in this process, whose record of the scan (an embedded
     * broker, or a private namespace on a cluster) ends with it; or on the cluster {@code kafka}, where a wait
     * can stall for want of a ledger or workers.
     */
    record Hints(String kafka, boolean inProcess) {
        static Hints local() {
            return new Hints(null, true);
        }

        static Hints cluster(String kafka) {
            return new Hints(kafka, false);
        }
    }

    public ProgressPrinter(PrintStream out) {
        this(out, out == System.out && Terminal.isInteractive());
    }

    ProgressPrinter(PrintStream out, boolean terminal) {
        this(out, terminal, System::currentTimeMillis);
    }

    ProgressPrinter(PrintStream out, boolean terminal, LongSupplier clock) {
        this.out = out;
        this.terminal = terminal;
        this.clock = clock;
        this.sinceMillis = clock.getAsLong();
    }

    /** The lines of an import: rows read from the files of the export in {@code source} (a folder, a container). */
    ProgressPrinter fromFiles(String source) {
        this.fromFiles = true;
        this.filesSource = "the export in " + source;
        return this;
    }

    /** The source as a line names it: account/table, or for an import the export it reads. */
    private String source(ScanSpec spec) {
        return fromFiles ? filesSource : spec.getSource().getAccount() + "/" + spec.getSource().getTable();
    }

    /**
     * A scan into this command's private topic: the lines name {@code purpose} (say, "export to /backups/x"), not
     * the topic, which is deleted at the end; {@code nextSince} says whether the summary's next --since applies.
     */
    ProgressPrinter intoPrivateTopic(String purpose, boolean nextSince) {
        this.purpose = purpose;
        this.nextSince = nextSince;
        return this;
    }

    /** A scan that writes to no table or sink of the user's: its summary says no "rows written". */
    ProgressPrinter readsOnly() {
        this.readsOnly = true;
        return this;
    }

    /** Sets where the workers run; on a cluster it also watches for a missing ledger or missing workers. */
    ProgressPrinter hints(Hints hints) {
        this.hints = hints;
        this.stalls = hints.inProcess() ? null : new StallWatch(hints.kafka(), clock.getAsLong());
        return this;
    }

    /** How often to report: a terminal bar is redrawn often, plain lines are kept few. */
    Duration interval() {
        return terminal ? Duration.ofMillis(500) : Duration.ofSeconds(5);
    }

    /** The scan is seeded now: the wait for its first record counts from here. */
    void progressHeader(ScanSpec spec) {
        sinceMillis = clock.getAsLong();
        if (fromFiles) { // no page size: the files are read whole
            out.printf("scan %s: %s -> %s%n", spec.getScanId(), filesSource, target(spec, false));
            return;
        }
        out.printf("scan %s: %s -> %s, page size %d%s%n", spec.getScanId(), spec.getSource().getTable(),
                purpose != null ? purpose : target(spec, false), spec.getPageSize(), selection(spec).map(s -> "; " + s).orElse(""));
    }

    void progress(ScanTotals t) {
        long now = clock.getAsLong();
        draw(t, now);
        if (stalls != null) {
            stalls.check(t, now).ifPresent(hint -> {
                endLine();
                out.println("  " + hint);
            });
        }
        out.flush();
    }

    private void draw(ScanTotals t, long now) {
        String line = t.started() ? line(t, now) : hints.inProcess() // this process's own ledger, just starting
                ? "starting scan " + t.scanId() + "... " + clock(now - sinceMillis)
                : "waiting for a ledger to record scan " + t.scanId() + "... " + clock(now - sinceMillis);
        if (terminal) {
            out.print("\r" + (t.started() ? bar(t) + " " : "") + line + "\u001b[K");
            barShown = true;
        } else { // no bar: its figures in words
            out.println("  " + (t.started() ? itemsDone(t) + ", " : "") + line);
        }
    }

    /** Ctrl-C was seen: the workers and the broker take a few seconds to stop and clean up. */
    void stopping() {
        out.println("interrupted: cancelling the scan and stopping (Ctrl-C again to quit at once)...");
        out.flush();
    }

    /** Ends a bar drawn in place, so what follows starts on a line of its own. */
    void endLine() {
        if (barShown) {
            out.println();
            barShown = false;
        }
    }

    /** While the scan runs its clock runs too, also when no event comes (no worker running, a long page). */
    static String line(ScanTotals t, long nowMillis) {
        long elapsed = t.ended() || !t.started() ? t.elapsedMillis()
                : Math.max(t.elapsedMillis(), nowMillis - t.status().getStartMillis());
        return String.format("%s, %,.0f rows/s, %s, %,d failed, %s", plural(t.rowsCopied(), "row"),
                t.rowsPerSecond(), plural(t.openItems(), "open item"), t.itemsFailed(), clock(elapsed));
    }

    static String clock(long millis) {
        long seconds = Math.max(0, millis) / 1000;
        return seconds >= 3600 ? String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format("%d:%02d", seconds / 60, seconds % 60);
    }

    /** Items finished out of items known so far: the table's size is unknown until discovery ends. */
    static String bar(ScanTotals t) {
        double fraction = doneFraction(t);
        int filled = (int) Math.round(fraction * BAR);
        return "[" + "#".repeat(filled) + ".".repeat(BAR - filled) + String.format("] %3.0f%%", fraction * 100);
    }

    /** The bar's figures for a plain line: "120 of 643 items done (19%)". */
    static String itemsDone(ScanTotals t) {
        return String.format("%,d of %,d items done (%.0f%%)", t.itemsEmitted() - t.openItems(), t.itemsEmitted(),
                doneFraction(t) * 100);
    }

    private static double doneFraction(ScanTotals t) {
        long emitted = Math.max(1, t.itemsEmitted());
        return Math.min(1.0, (emitted - t.openItems()) / (double) emitted);
    }

    /** The rows and columns a scan selects, as the user gave them, or empty for the whole table. */
    static Optional<String> selection(ScanSpec spec) {
        List<String> parts = new ArrayList<>();
        if (spec.getLowerPartition() != null || spec.getUpperPartition() != null) {
            parts.add("partitions from " + quoted(spec.getLowerPartition()) + " to " + quoted(spec.getUpperPartition()));
        }
        if (spec.getRowFilter() != null) {
            parts.add("filter " + spec.getRowFilter());
        }
        if (spec.getSelect() != null) {
            parts.add("columns " + String.join(",", spec.getSelect()));
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", parts));
    }

    private static String quoted(String bound) {
        return bound == null ? "the end" : "\"" + bound + "\"";
    }

    /**
     * How far before a complete scan's start the next incremental copy begins. A row's Timestamp is the
     * service's clock when it committed the write, not this machine's: a write under way when the scan
     * started, or a clock ahead of the service's, can leave a Timestamp earlier than the start in a row this
     * scan did not read. Rows written in the overlap are copied again, which upsert-replace makes harmless.
     */
    static final Duration SINCE_OVERLAP = Duration.ofMinutes(15);

    /** The --since of the next incremental copy after a complete scan of this spec. */
    static String nextSince(ScanSpec spec) {
        return DateTimeFormatter.ISO_INSTANT.format(
                Instant.ofEpochMilli(spec.getCreatedAtMillis()).minus(SINCE_OVERLAP).truncatedTo(ChronoUnit.SECONDS));
    }

    /** Prints the summary; returns the exit code: 0 completed, 1 failures or not ended, 5 cancelled. */
    int summary(ScanTotals t) {
        if (barShown) { // a last frame, so the bar above the summary shows where the scan ended, not a frame ago
            draw(t, clock.getAsLong());
            endLine();
        }
        if (t.spec() != null && t.spec().getCount()) {
            return countSummary(t);
        }
        if (t.spec() != null && t.spec().getVerify()) {
            return verifySummary(t);
        }
        out.printf("scan %s %s%n", t.scanId(), describe(t));
        if (t.spec() != null) {
            out.printf("  tables:        %s -> %s%n", source(t.spec()), purpose != null ? purpose : target(t.spec(), true));
        }
        out.printf("  rows read:     %,d %s%n", t.rowsRead(), fromFiles ? "from the export's files"
                : "in " + plural(t.partitions(), "partition"));
        if (!readsOnly) {
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

    /**
     * The watermark for the next incremental run, only after a scan that completed with no failed item and only for
     * jobs that take --since: the rows of a failed item were not copied, and a run from a later time would never
     * read them.
     */
    private void nextSinceLine(ScanTotals t) {
        if (t.spec() == null || fromFiles || !nextSince || t.spec().getMirror() || !t.complete()) {
            return;
        }
        if (t.state() == ScanState.COMPLETED && t.itemsFailed() == 0) {
            out.printf("  next --since:  %s (for an incremental copy: this scan's start less %d minutes)%n",
                    nextSince(t.spec()), SINCE_OVERLAP.toMinutes());
        } else {
            out.println("  next --since:  none: not every row was copied; " + (hints.inProcess()
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

    static String plural(long n, String noun) {
        return plural(n, noun, noun + "s");
    }

    static String plural(long n, String one, String many) {
        return String.format("%,d %s", n, n == 1 ? one : many);
    }

    /** The scan's items and requests. */
    private void work(ScanTotals t) {
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

    /**
     * Where the scan's rows go: its destination table, or its sink's type and target (never the sink's options,
     * which are free-form), with the account alias when {@code withAccount}.
     */
    static String target(ScanSpec spec, boolean withAccount) {
        if (spec.getCount()) {
            return "(count)";
        }
        if (spec.getDestination() != null) {
            return (withAccount ? spec.getDestination().getAccount() + "/" : "") + spec.getDestination().getTable();
        }
        var sink = spec.getSink();
        if (sink == null) {
            return "(no destination)";
        }
        if (sink.getType().equals(TargetOptions.TOPIC)) {
            return "topic " + sink.getTarget();
        }
        String account = withAccount && sink.getAccount() != null ? sink.getAccount() + "/" : "";
        return "sink " + sink.getType() + (sink.getTarget().isEmpty() ? "" : " " + account + sink.getTarget());
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
