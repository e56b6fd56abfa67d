package io.tablescan.job;

import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.util.Map;

/**
 * The lines every scan's summary shares, as the command that shows it words them (where its workers run, what the
 * scan is for): a job's {@link Job#summary} composes them with its own.
 */
public interface Summary {
    /** Exit code: the scan failed or did not end. */
    int FAILED = 1;
    /** Exit code: the scan was cancelled. */
    int CANCELLED = 5;
    /** Exit code: the tables compared differ. */
    int DIFFERENT = 7;

    PrintStream out();

    /** "scan ID completed" and the like. */
    void head(ScanTotals t);

    /** The source as the lines name it: account/table, or the export an import reads. */
    String source(ScanSpec spec);

    /** Where the rows go: the destination's account/table, the sink, or what a private scan is for. */
    String target(ScanSpec spec);

    /** "rows read" (and unless the command only reads, "rows written"). */
    void rows(ScanTotals t);

    /** Duration and rows per second. */
    void pace(ScanTotals t);

    /** Items and requests, of both tables for a job that reads the destination. */
    void work(ScanTotals t);

    /** Why a complete scan read no row. */
    void emptyHint(ScanTotals t);

    /** The --since of the next incremental run. */
    void nextSince(ScanTotals t);

    /** The errors, and what to do about failed items; {@code again}: the local command to run again, else a copy. */
    void errors(ScanTotals t, String again);

    /** The first differences the command read, if any, under these labels, with the exact counts. */
    void differences(Map<DifferenceKind, String> labels, Map<DifferenceKind, Long> counts);

    /**
     * The summary of a job on one table (count, delete): the scan's lines, the table, its pace, work and errors
     * ({@code again}: the command to run again), then {@code result}; returns the scan's exit code.
     */
    default int oneTable(ScanTotals t, String again, String result) {
        head(t);
        out().printf("  table:         %s/%s%n", t.spec().getSource().getAccount(), t.spec().getSource().getTable());
        pace(t);
        work(t);
        emptyHint(t);
        errors(t, again);
        out().println(result);
        return scanCode(t);
    }

    /** The scan's exit code: 0 completed, 1 failures or not ended, 5 cancelled. */
    int scanCode(ScanTotals t);

    /** "1 row", "2 rows", with thousands separators. */
    static String plural(long n, String noun) {
        return plural(n, noun, noun + "s");
    }

    static String plural(long n, String one, String many) {
        return String.format("%,d %s", n, n == 1 ? one : many);
    }
}
