package io.tablescan.jobs;

import static io.tablescan.job.Summary.plural;

import io.tablescan.items.EntityBatcher;
import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.JobRef;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanFold;
import io.tablescan.status.ScanTotals;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * A delete: the readers read the keys (and ETags) of the rows the scan selects and emit batches that delete them, at
 * most 100 of one partition each; the copy-worker deletes each row only if it still has the ETag read, so a row
 * written since it was read is kept and counted as skipped. A delete made here, before the read's transaction
 * commits, would hide its row from a replay of this item, whose counts would then come out short. A dry run reads
 * and counts only.
 */
public final class DeleteJob implements Job {
    public static final String NAME = ScanFold.DELETE_JOB;
    /** "true": count what would be deleted, delete nothing. */
    public static final String DRY_RUN = ScanFold.DRY_RUN;
    /** "true": the user chose the whole table (no selection). */
    public static final String ALL = "all";
    /** The partitions chosen (--partition-prefix, --from/--to-partition), as the user gave them. */
    public static final String PARTITIONS = "partitions";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> options() {
        return Set.of(DRY_RUN, ALL, PARTITIONS);
    }

    /** A delete of every row must be asked for: no selection is refused unless --all. */
    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
        request.noSince("it selects by --older-than");
        boolean selected = request.filter() != null || request.options().containsKey(PARTITIONS);
        boolean all = "true".equals(request.options().get(ALL));
        if (!selected && !all) {
            throw new JobRequest.Refused(request.named() + " needs a selection (--older-than, --filter, "
                    + "--partition-prefix, --from/--to-partition), or --all to delete every row of the table");
        }
        if (selected && all) {
            throw new JobRequest.Refused(request.named() + ": give a selection or --all, not both");
        }
    }

    @Override
    public boolean keysOnly() {
        return true;
    }

    @Override
    public boolean writes() {
        return false;
    }

    @Override
    public TableRef deletesFrom(ScanSpec spec) {
        return dryRun(spec) ? null : spec.getSource();
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep r) {
        ItemHandler.Result read = Steps.read(r, false);
        if (dryRun(r.spec()) || r.step().rows().isEmpty()) {
            return read;
        }
        List<SpecificRecord> emitted = new ArrayList<>(read.emitted());
        emitted.addAll(EntityBatcher.deletes(r.spec(), r.step().rows()));
        return new ItemHandler.Result(emitted, read.rowsRead(), 0, read.requests(), read.partitions(), Map.of());
    }

    @Override
    public List<String> counters() {
        return List.of(Counters.DELETED, Counters.SKIPPED);
    }

    /** The scan's lines, then what was deleted (or, a dry run, would be); exact only when completed. */
    @Override
    public int summary(ScanTotals t, Summary out) {
        return out.oneTable(t, "delete again", resultLine(t));
    }

    /** "deleted 1,200 rows; 3 skipped (changed since read)", or a dry run's count. */
    public static String resultLine(ScanTotals t) {
        String incomplete = t.state() == ScanState.COMPLETED ? "" : "incomplete (the scan did not complete): ";
        if (dryRun(t.spec())) {
            return incomplete + "dry run: " + plural(t.rowsRead(), "row") + " in " + plural(t.partitions(), "partition")
                    + " would be deleted; nothing was deleted";
        }
        return incomplete + doneLine(t);
    }

    /** "deleted 1,200 rows; 3 skipped (changed since read)": what a delete has done so far. */
    public static String doneLine(ScanTotals t) {
        return "deleted " + plural(t.counter(Counters.DELETED), "row") + "; "
                + String.format("%,d", t.counter(Counters.SKIPPED)) + " skipped (changed since read)";
    }

    /** Whether the spec's delete is a dry run. */
    public static boolean dryRun(ScanSpec spec) {
        JobRef job = spec.getJob();
        return job != null && "true".equals(job.getOptions().get(DRY_RUN));
    }
}
