package io.tablescan.cli;

import static io.tablescan.cli.ProgressPrinter.selection;
import static io.tablescan.job.Summary.plural;

import io.tablescan.job.Job;
import io.tablescan.job.Jobs;
import io.tablescan.job.Summary;
import io.tablescan.jobs.CopyJob;
import io.tablescan.jobs.CountJob;
import io.tablescan.runtime.ItemKind;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * A scan's summary when it ends or is looked at: the lines every job's summary shares, worded for the command that
 * shows it (its hints, next --since); the job composes them with its own ({@link Job#summary}).
 */
final class ScanSummary implements Summary {
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
    private final DifferenceReport differences;

    /** {@code differences}: the first differences the command read (a verify's, a mirror's), or null. */
    ScanSummary(PrintStream out, Options options, DifferenceReport differences) {
        this.out = out;
        this.options = options;
        this.differences = differences;
    }

    /** The --since of the next incremental copy after a complete scan of this spec. */
    static String nextSince(ScanSpec spec) {
        return DateTimeFormatter.ISO_INSTANT.format(
                Instant.ofEpochMilli(spec.getCreatedAtMillis()).minus(SINCE_OVERLAP).truncatedTo(ChronoUnit.SECONDS));
    }

    /** Prints the summary, its job's (see {@link Job#summary}); returns the exit code. */
    int print(ScanTotals t) {
        JsonOutput.summarized(t);
        return (t.spec() == null ? Jobs.named(CopyJob.NAME) : Jobs.of(t.spec())).summary(t, this);
    }

    @Override
    public PrintStream out() {
        return out;
    }

    @Override
    public void head(ScanTotals t) {
        out.printf("scan %s %s%n", t.scanId(), describe(t, options.hints().inProcess()));
    }

    /** The source as a line names it: account/table, or for an import the export it reads. */
    @Override
    public String source(ScanSpec spec) {
        return options.fromFiles() ? options.filesSource()
                : spec.getSource().getAccount() + "/" + spec.getSource().getTable();
    }

    @Override
    public String target(ScanSpec spec) {
        return options.purpose() != null ? options.purpose() : ProgressPrinter.target(spec, true);
    }

    @Override
    public void rows(ScanTotals t) {
        out.printf("  rows read:     %,d %s%n", t.rowsRead(), options.fromFiles() ? "from the export's files"
                : "in " + plural(t.partitions(), "partition"));
        if (!options.readsOnly()) {
            out.printf("  rows written:  %,d%n", t.rowsWritten());
        }
    }

    @Override
    public void pace(ScanTotals t) {
        out.printf("  duration:      %.1f s%n", t.elapsedMillis() / 1000.0);
        out.printf("  rows/s:        %,.0f%s%n", t.rowsPerSecond(), t.ended() ? " (average)" : " (recent)");
    }

    /**
     * The watermark for the next incremental run, only after a scan that completed with no failed item and only for
     * jobs that take --since (those that call this): the rows of a failed item were not copied, and a run from a
     * later time would never read them.
     */
    @Override
    public void nextSince(ScanTotals t) {
        if (t.spec() == null || options.fromFiles() || !options.nextSince() || !t.complete()) {
            return;
        }
        if (t.state() == ScanState.CANCELLED) { // a cancelled scan is not retried: only a new one completes
            out.println("  next --since:  none: the scan was cancelled; " + (options.hints().inProcess()
                    ? "run the same command again" : "start it again") + ": the run that completes prints it");
        } else if (t.state() == ScanState.COMPLETED && t.itemsFailed() == 0) {
            out.printf("  next --since:  %s (for an incremental copy: this scan's start less %d minutes)%n",
                    nextSince(t.spec()), SINCE_OVERLAP.toMinutes());
        } else {
            out.println("  next --since:  none: not every row was copied; " + (options.hints().inProcess()
                    ? "run the same command again" : "retry the failed items (see below)") + ": the run that completes "
                    + "prints it");
        }
    }

    @Override
    public void differences(Map<DifferenceKind, String> labels, Map<DifferenceKind, Long> counts) {
        if (differences != null) {
            differences.printFirst(out, labels, counts);
        }
    }

    @Override
    public int scanCode(ScanTotals t) {
        return exitCode(t);
    }

    /** "1,237 rows in 412 partitions" when exact; what was counted so far when not. */
    static String countLine(ScanTotals t) {
        return CountJob.countLine(t);
    }

    /** The scan's items and requests. */
    @Override
    public void work(ScanTotals t) {
        String purpose = options.purpose();
        out.printf("  items:         %s, %s, %s (deepest chain %d)%n",
                items(t, ItemKind.PREFIX_QUERY, "prefix query", "prefix queries"),
                items(t, ItemKind.PARTITION_QUERY, "partition query", "partition queries"),
                items(t, ItemKind.ENTITY_BATCH, "entity batch", "entity batches"), t.maxDepth());
        out.printf("  open items:    %,d of %,d emitted; %,d failed, %,d skipped, %,d retried%n", t.openItems(),
                t.itemsEmitted(), t.itemsFailed(), t.itemsSkipped(), t.itemsRetried());
        // A topic takes records in the worker's transaction, not requests: say what it got.
        boolean topic = purpose == null && t.spec() != null && t.spec().getSink() != null
                && t.spec().getSink().getType().equals(TargetOptions.TOPIC);
        String written = topic ? plural(t.rowsWritten(), "record") + " to the topic"
                : purpose != null ? plural(t.rowsWritten(), "row") + " staged in Kafka"
                : plural(t.writeRequests(), "write") + " to the destination";
        Job job = t.spec() == null ? null : Jobs.of(t.spec());
        // A job that compares reads both tables, counted together.
        boolean both = job != null && job.readsDestination();
        // A delete writes no rows but sends its deletes (batches of up to 100, each conditional on the ETag read).
        boolean deletes = job != null && !job.writes() && job.deletesFrom(t.spec()) != null;
        String writes = deletes ? ", " + plural(t.writeRequests(), "delete request") + " to the source"
                : job != null && !job.writes() ? "" : ", " + written;
        out.printf("  requests:      %s of %s%s; %,d retried (%,d throttled)%n", plural(t.readRequests(), "read"),
                both ? "the source and the destination" : "the source", writes, t.retries(), t.throttles());
    }

    /**
     * "12 entity batches (4 failed)": the items of a kind that ended, done or failed for good (parked, as
     * {@code status} and {@code failures} count them), so that a failed item is not missing from the line.
     */
    private static String items(ScanTotals t, ItemKind kind, String one, String many) {
        long failed = t.failed(kind);
        return plural(t.done(kind) + failed, one, many) + (failed > 0 ? String.format(" (%,d failed)", failed) : "");
    }

    /**
     * A scan that completed with no failed or skipped item and read no row: say why, so an empty result is not taken
     * for a fault. A scan whose items failed (an account the workers do not know) or were skipped did not read the
     * table: nothing can be said of its rows.
     */
    @Override
    public void emptyHint(ScanTotals t) {
        if (t.complete() && t.state() == ScanState.COMPLETED && t.itemsFailed() == 0 && t.itemsSkipped() == 0
                && t.rowsRead() == 0 && t.spec() != null) {
            out.println("  no rows:       " + selection(t.spec()).map(s -> "no row of the source matches the selection ("
                    + s + ")").orElse("the source table is empty"));
        }
    }

    @Override
    public void errors(ScanTotals t, String again) {
        for (String error : t.errors()) {
            out.println("  error:         " + error);
        }
        if (t.itemsFailed() > 0) {
            out.println("  " + failureHint(t, again));
        }
    }

    /** What to do about failed items, with commands that work where this scan ran; {@code again}: see errors. */
    String failureHint(ScanTotals t, String again) {
        String id = t.scanId();
        ProgressPrinter.Hints hints = options.hints();
        String kafka = hints.kafka();
        String failed = plural(t.itemsFailed(), "failed item");
        if (hints.inProcess() && again != null) {
            return failed + ": fix the cause (errors above), then " + again;
        }
        if (hints.inProcess()) { // this command's record of the failures ends with it
            return failed + ": fix the cause (errors above), then run the same copy again: it is idempotent "
                    + "(rows already copied are rewritten, not duplicated)";
        }
        String failures = "`tablescan failures " + id + " --kafka " + kafka + "`";
        boolean one = t.itemsFailed() == 1;
        String parked = failed + (one ? " is parked: see " : " are parked: see ") + failures;
        if (t.state() == ScanState.CANCELLED) { // retry refuses a cancelled scan
            return parked + "; the scan was cancelled, so " + (one ? "it" : "they") + " cannot be retried: "
                    + "after fixing the cause, start the scan again";
        }
        String retry = "`tablescan retry " + id + " --kafka " + kafka + " --wait`";
        return parked + ", then after fixing the cause " + retry;
    }

    /**
     * The one line for a copy stopped by Ctrl-C: what the destination holds and how to finish; {@code partial} when
     * work in hand was stopped after it had written (see {@code CopyRun.Outcome}): the count is then a floor.
     */
    static String interrupted(ScanTotals t, ScanSpec spec, boolean partial) {
        String dest = spec.getDestination() != null ? "table " + spec.getDestination().getTable()
                : spec.getSink() != null ? ProgressPrinter.target(spec, false) : "the destination";
        if (!t.started()) {
            return "interrupted before the copy started: nothing was copied to " + dest;
        }
        return String.format("interrupted: %s holds part of the copy (%s%s written when stopped%s); run the same "
                + "copy again to finish it: it is idempotent", dest, partial ? "at least " : "",
                plural(t.rowsWritten(), "row"), partial ? ": work in hand then stopped after writing more" : "");
    }

    static String describe(ScanTotals t) {
        return describe(t, false);
    }

    /**
     * The scan's state in words; a scan still running is "still running" where a cluster's workers go on with it,
     * and did not complete where it ran in a process that has stopped ({@code inProcess}).
     */
    static String describe(ScanTotals t, boolean inProcess) {
        if (!t.started()) {
            return "is unknown to the ledger";
        }
        return switch (t.state()) {
            case COMPLETED -> "completed";
            case COMPLETED_WITH_FAILURES -> "completed with " + plural(t.itemsFailed(), "failed item");
            case CANCELLED -> "was cancelled" + (t.openItems() > 0 ? " (" + plural(t.openItems(), "item") + " still draining)" : "");
            case RUNNING -> (inProcess ? "did NOT complete (" : "is still running (")
                    + plural(t.openItems(), "open item") + ")";
        };
    }

    static int exitCode(ScanTotals t) {
        if (!t.started()) {
            return UserError.FAILED;
        }
        return t.state() == ScanState.COMPLETED ? 0 : t.state() == ScanState.CANCELLED ? UserError.CANCELLED : UserError.FAILED;
    }
}
