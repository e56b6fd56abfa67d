package io.tablescan.jobs;

import io.tablescan.compare.RangeComparer;
import io.tablescan.compare.RowMerge;
import io.tablescan.compare.TableReads;
import io.tablescan.items.EntityBatcher;
import io.tablescan.job.ReadStep;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.Counters;
import io.tablescan.spi.TableStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The read step of the jobs that compare (verify, mirror, changed-only copy): after the step reads its range of the
 * source, the same keys of the destination are read and merged with it ({@link RangeComparer}). The differences go
 * to {@code <namespace>.differences} in the item's transaction and their counts into its scan event, so both are
 * exact under replays. A job that writes differences emits only what differs: the source rows missing or different
 * in the destination, and (a mirror) deletes of the destination's rows the source lacks, as entity batches for the
 * copy-worker (equal rows are not written). A delete made here, before this transaction commits, would hide its
 * row from a replay of this item, whose counts would then come out short.
 */
final class Comparison {
    private Comparison() {}

    /** The step's handed-off work, and what comparing found: emitted as writes if {@code writes}, and deletes. */
    static ItemHandler.Result compare(ReadStep r, boolean writes, boolean deletes) {
        ScanSpec spec = r.spec();
        ItemHandler.Result read = Steps.read(r, false);
        if (spec.getDestination() == null) {
            throw new IllegalArgumentException("a verify or mirror names a destination table");
        }
        String table = spec.getDestination().getTable();
        TableStore destination = r.settings().store(spec.getDestination().getAccount(), r.context());
        RangeComparer.Outcome outcome = spec.getRowFilter() == null
                ? RangeComparer.compare(spec.getScanId(), r.item(), r.step(), StepItems.reader(destination, table, spec))
                : RangeComparer.compare(spec.getScanId(), r.item(), r.step(), StepItems.reads(destination, table, spec),
                        selection(r, writes || deletes));
        RowMerge.Result merge = outcome.merge();
        List<SpecificRecord> emitted = new ArrayList<>(read.emitted());
        if (writes) { // written (and deleted) by the copy-worker once this transaction commits, each row only if the
            // destination still holds what was compared: a row changed or created since is a conflict, kept
            emitted.addAll(EntityBatcher.batches(spec, merge.toWrite(), merge.writeEtags()));
        }
        if (deletes) {
            emitted.addAll(EntityBatcher.deletes(spec, merge.extra()));
        }
        String topic = r.settings().kafka().namespace().differences();
        Serializer<SpecificRecord> serializer = r.settings().kafka().valueSerializer();
        byte[] key = spec.getScanId().getBytes(StandardCharsets.UTF_8);
        for (Difference difference : merge.differences()) {
            if (deletes && difference.getKind() == DifferenceKind.EXTRA) {
                difference.setDeleted(true);
            }
            r.context().publish(topic, key, serializer.serialize(topic, difference), Map.of());
        }
        return new ItemHandler.Result(emitted, read.rowsRead(), read.rowsWritten(),
                read.requests() + outcome.requests(), read.partitions(), Map.of(Counters.MISSING, merge.missing(),
                        Counters.DIFFERENT, merge.differing(), Counters.EXTRA, merge.extraCount()));
    }

    /**
     * A scan read through a filter (--since included): a verify also seeks the destination rows the filter selects
     * whose source row it did not select; a job that writes (a changed-only copy: a mirror takes no filter) only
     * writes the source's selected rows, and keeps the destination's others, so it does not read them.
     */
    private static RangeComparer.Selection selection(ReadStep r, boolean writes) {
        ScanSpec spec = r.spec();
        TableReads source = writes ? null
                : StepItems.reads(r.settings().sourceStore(spec, r.context()), spec.getSource().getTable(), spec);
        return new RangeComparer.Selection(spec.getRowFilter(), spec.getPageSize(), source);
    }
}
