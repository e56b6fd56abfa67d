package io.tablescan.cli;

import io.tablescan.job.Job;
import io.tablescan.job.Jobs;
import io.tablescan.job.Summary;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Shows a scan's progress: a live bar redrawn in place on a terminal, plain periodic lines otherwise (logs,
 * pipes, CI), then hands the end to {@link ScanSummary}.
 */
public final class ProgressPrinter {
    private static final int BAR = 24;
    private final PrintStream out;
    private final boolean terminal;
    private final LongSupplier clock;
    private long sinceMillis;
    private boolean barShown;
    /** How the lines name the scan and which hints they give; the summary gets them too. */
    private ScanSummary.Options options = ScanSummary.Options.DEFAULT;
    private StallWatch stalls;
    /** The first differences a verify or mirror found, for its summary (null: none read). */
    private DifferenceReport differences;
    /** The rows the scan will have done: known (an import's), estimated (a previous export's), or 0: unknown. */
    private long totalRows;
    private String estimatedFrom;
    private final Eta eta;
    /** When a stopped local job resumed in this process, or 0. */
    private long resumedAtMillis;

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
        this.eta = new Eta(clock);
    }

    /** The scan will have done exactly {@code rows} rows (an import's): the lines show rows of the total, time left. */
    ProgressPrinter expecting(long rows) {
        this.totalRows = rows;
        return this;
    }

    /**
     * The rows a previous export of the same selection held, if one was found (see {@link PreviousExport}): the lines
     * show the time left at that size.
     */
    ProgressPrinter estimating(Optional<PreviousExport> previous) {
        previous.ifPresent(p -> {
            totalRows = p.rows();
            estimatedFrom = p.describe();
        });
        return this;
    }

    /** The lines of an import: rows read from the files of the export in {@code source} (a folder, a container). */
    ProgressPrinter fromFiles(String source) {
        options = options.withFiles(source);
        return this;
    }

    /**
     * A scan into this command's private topic: the lines name {@code purpose} (say, "export to /backups/x"), not
     * the topic, which is deleted at the end; {@code nextSince} says whether the summary's next --since applies.
     */
    ProgressPrinter intoPrivateTopic(String purpose, boolean nextSince) {
        options = options.withPurpose(purpose, nextSince);
        return this;
    }

    /** A scan that writes to no table or sink of the user's: its summary says no "rows written". */
    ProgressPrinter readsOnly() {
        options = options.withReadsOnly();
        return this;
    }

    /** The differences the scan found, read by the command once it ended: its summary lists the first. */
    ProgressPrinter differences(DifferenceReport found) {
        this.differences = found;
        return this;
    }

    /** Sets where the workers run; on a cluster it also watches for a missing ledger or missing workers. */
    ProgressPrinter hints(Hints hints) {
        options = options.withHints(hints);
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
        if (options.fromFiles()) { // no page size: the files are read whole
            out.printf("scan %s: %s -> %s%n", spec.getScanId(), options.filesSource(), target(spec, false));
            return;
        }
        out.printf("scan %s: %s -> %s, page size %d%s%n", spec.getScanId(), spec.getSource().getTable(),
                options.purpose() != null ? options.purpose() : target(spec, false), spec.getPageSize(),
                selection(spec).map(s -> "; " + s).orElse(""));
        if (estimatedFrom != null) {
            out.printf("  time left estimated for %s, as many as %s holds%n", plural(totalRows, "row"), estimatedFrom);
        }
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
        String line = t.started() ? started(t, now)
                : options.hints().inProcess() // this process's own ledger, just starting
                ? "starting scan " + t.scanId() + "... " + clock(now - sinceMillis)
                : "waiting for a ledger to record scan " + t.scanId() + "... " + clock(now - sinceMillis);
        if (terminal) {
            out.print("\r" + (t.started() ? bar(t) + " " : "") + line + "\u001b[K");
            barShown = true;
        } else { // no bar: its figures in words
            out.println("  " + (t.started() ? itemsDone(t) + ", " : "") + line);
        }
    }

    /** The figures of a started scan; the time left first, as it notes the rows done in the window of the rate. */
    private String started(ScanTotals t, long now) {
        String left = left(t);
        long elapsed = elapsed(t, now);
        return line(t, elapsed, rate(t, elapsed), estimatedFrom == null ? total(t) : 0) + left;
    }

    /**
     * The time the scan ran: to its end, or while it runs to now, also when no event comes (no worker running, a long
     * page). A resumed job's status read before the ledger took the resume in is the stopped run's: its time is the
     * time that run ran, not the time since it started.
     */
    private long elapsed(ScanTotals t, long now) {
        if (t.ended() || (resumedAtMillis > 0 && t.status().getLastEventMillis() < resumedAtMillis)) {
            return t.elapsedMillis();
        }
        return Math.max(t.elapsedMillis(), t.runningMillis(now));
    }

    /**
     * Rows done per second: once ended, the average over the time the scan ran; while it runs, over the last 10
     * seconds or so of what this process saw done (the ledger's own rate spans 5 to 10 s of the workers' event times,
     * which commit in bursts), since the start during the first second; for a resumed job, this run's rows only.
     */
    private double rate(ScanTotals t, long elapsed) {
        if (t.ended()) {
            return t.rowsPerSecond();
        }
        return eta.rate().orElseGet(() -> resumedAtMillis > 0 || elapsed <= 0 ? 0 : t.rowsCopied() * 1000.0 / elapsed);
    }

    /**
     * The rows the scan will have done, or 0. A cluster's import counts its rows as read at its start: their total
     * is known to status --watch too.
     */
    private long total(ScanTotals t) {
        var job = t.spec().getJob();
        return totalRows > 0 ? totalRows : job != null && job.getOptions().containsKey(ClusterImport.FROM) ? t.rowsRead() : 0;
    }

    /** ", about 0:42 left" while the scan runs, when its total is known or estimated and its rate too. */
    private String left(ScanTotals t) {
        return t.ended() ? "" : eta.suffix(t.rowsCopied(), total(t));
    }

    /** Ctrl-C was seen: the workers and the broker take a few seconds to stop and clean up. */
    /** Ctrl-C stopped a local job that a rerun resumes: nothing is cancelled. */
    void pausing() {
        out.println("interrupted: stopping; the job is kept for a rerun to resume (Ctrl-C again to quit at once)...");
        out.flush();
    }

    /** A stopped local job runs again: {@code line} says so; its rates count this run's rows from now. */
    void resuming(String line) {
        resumedAtMillis = clock.getAsLong();
        line(line);
    }

    /** One line of its own, on the progress's stream. */
    void line(String text) {
        out.println(text);
        out.flush();
    }

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

    /** Prints the scan's summary (ScanSummary) after a last frame of the bar; returns the exit code it implies. */
    int summary(ScanTotals t) {
        if (barShown) { // a last frame, so the bar above the summary shows where the scan ended, not a frame ago
            draw(t, clock.getAsLong());
            endLine();
        }
        return new ScanSummary(out, options, differences).print(t);
    }

    /** With {@code total} > 0 the rows are of it: "1,200 of 5,000 rows, ...". */
    static String line(ScanTotals t, long elapsed, double rowsPerSecond, long total) {
        String rows = total > 0 ? String.format("%,d of %s", t.rowsCopied(), plural(total, "row"))
                : plural(t.rowsCopied(), "row");
        return String.format("%s, %,.0f rows/s, %s, %,d failed, %s", rows,
                rowsPerSecond, plural(t.openItems(), "open item"), t.itemsFailed(), clock(elapsed));
    }

    static String plural(long n, String noun) {
        return Summary.plural(n, noun);
    }

    static String plural(long n, String one, String many) {
        return Summary.plural(n, one, many);
    }

    /** A time the sets and scans record (ISO-8601, to the nanosecond) to the second, as lines show times. */
    static String toSecond(String instant) {
        try {
            return java.time.Instant.parse(instant).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        } catch (java.time.format.DateTimeParseException e) {
            return instant;
        }
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
     * Where the scan's rows go: its destination table, or its sink's type and target (never the sink's options,
     * which are free-form), with the account alias when {@code withAccount}.
     */
    static String target(ScanSpec spec, boolean withAccount) {
        return io.tablescan.ledger.page.ScanJson.target(spec, withAccount); // the status page's description too
    }
}
