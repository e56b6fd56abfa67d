package io.tablescan.jobs;

import static io.tablescan.job.Summary.plural;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A mirror: the readers compare each range with the destination table, emit only the rows missing or different
 * there, and the deletes of the destination rows the source lacks, so that the destination ends equal to the
 * source in the scan's range. Its dry run is a verify ({@link VerifyJob#DRY_RUN_OF}).
 */
public final class MirrorJob implements Job {
    public static final String NAME = "mirror";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * A mirror deletes by what the source holds in its range. --since reads only rows written since: it cannot see
     * which rows the source deleted. --filter selects by values, which differ between the tables exactly where a
     * mirror has work: a destination row the filter selects may be a row the source holds with values it does not
     * select, and a mirror would delete a row the source has.
     */
    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
        request.needsTable("it mirrors into a table");
        request.noSince("an incremental read cannot know which rows the source deleted");
        request.noFilter("a destination row the filter selects may be one the source holds with other values, and "
                + "would be deleted");
    }

    @Override
    public void legacyFlags(ScanSpec.Builder spec) {
        spec.setMirror(true);
    }

    @Override
    public boolean readsDestination() {
        return true;
    }

    @Override
    public TableRef deletesFrom(ScanSpec spec) {
        return spec.getDestination();
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep step) {
        return Comparison.compare(step, true, true);
    }

    @Override
    public List<String> counters() {
        return List.of(Counters.MISSING, Counters.DIFFERENT, Counters.EXTRA, Counters.DELETED, Counters.SKIPPED,
                Counters.CONFLICTS);
    }

    /** A copy's lines without a next --since (a mirror takes none), then what it wrote and deleted. */
    @Override
    public int summary(ScanTotals t, Summary out) {
        return written(t, out, CopyJob.summary(t, out, false), false);
    }

    /** The differences written and the extra rows deleted (or, {@code keeps}, kept: a changed-only copy). */
    static int written(ScanTotals t, Summary out, int code, boolean keeps) {
        out.differences(labels("written (were missing)", "written (were different)", keeps ? "extra (kept)"
                : "deleted"), VerifyJob.counts(t));
        long missing = t.counter(Counters.MISSING);
        long different = t.counter(Counters.DIFFERENT);
        out.out().printf("%s: %s, %,d different (%,d written); %,d unchanged (not written); %,d extra, %s%n",
                keeps ? "changed only" : "mirror", plural(missing, "row was missing", "rows were missing"), different,
                t.rowsWritten(), unchanged(t), t.counter(Counters.EXTRA), keeps ? "kept"
                        : String.format("%,d deleted", t.counter(Counters.DELETED)) + conflicts(t));
        long conflicts = t.counter(Counters.CONFLICTS);
        if (conflicts > 0) {
            out.out().printf("conflicts: %s not overwritten: changed or created in the destination after the "
                    + "comparison read it; a next run compares %s again%n", plural(conflicts, "row"),
                    conflicts == 1 ? "it" : "them");
        }
        return code;
    }

    /** The extra rows kept because they were written after the comparer read them ("" when none). */
    private static String conflicts(ScanTotals t) {
        long skipped = t.counter(Counters.SKIPPED);
        return skipped == 0 ? "" : String.format(" (%,d kept: changed since read)", skipped);
    }

    /** A dry run's findings (a verify's), told as what the mirror would do. */
    static int dryRun(ScanTotals t, Summary out, int code) {
        out.differences(labels("to write (missing)", "to write (different)", "to delete"), VerifyJob.counts(t));
        long missing = t.counter(Counters.MISSING);
        long different = t.counter(Counters.DIFFERENT);
        out.out().printf("%sdry run: the mirror would write %s (%,d missing, %,d different), leave %,d unchanged and "
                + "delete %,d; nothing was changed%n", t.state() == ScanState.COMPLETED ? "" : "incomplete ",
                plural(missing + different, "row"), missing, different, unchanged(t), t.counter(Counters.EXTRA));
        return code;
    }

    private static long unchanged(ScanTotals t) {
        return Math.max(0, t.rowsRead() - t.counter(Counters.MISSING) - t.counter(Counters.DIFFERENT));
    }

    private static Map<DifferenceKind, String> labels(String missing, String different, String extra) {
        Map<DifferenceKind, String> labels = new EnumMap<>(DifferenceKind.class);
        labels.put(DifferenceKind.MISSING, missing);
        labels.put(DifferenceKind.DIFFERENT, different);
        labels.put(DifferenceKind.EXTRA, extra);
        return labels;
    }
}
