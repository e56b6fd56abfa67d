package io.tablescan.items;

import io.tablescan.compare.RangeComparer;
import io.tablescan.compare.RowMerge;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.scanner.StepResult;
import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.ScanQuery;
import io.tablescan.table.TableStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The read steps of a verify or a mirror: after the step reads its range of the source, the same keys of the
 * destination are read and merged with it ({@link RangeComparer}). The differences go to
 * {@code <namespace>.differences} in the item's transaction and their counts into its scan event, so both are
 * exact under replays. A mirror writes only what differs: the source rows missing or different in the
 * destination, and deletes of the destination's rows the source lacks, travel as entity batches for the
 * copy-worker (equal rows are not written). A delete made here, before this transaction commits, would hide its
 * row from a replay of this item, whose counts would then come out short.
 */
public final class ComparingSteps {
    private final WorkerSettings settings;
    private final Serializer<SpecificRecord> serializer;

    public ComparingSteps(WorkerSettings settings) {
        this.settings = settings;
        this.serializer = settings.kafka().valueSerializer();
    }

    /** True for the scans whose readers compare: verify, mirror and a copy of changes only. */
    public static boolean applies(ScanSpec spec) {
        return spec.getVerify() || writesDifferences(spec);
    }

    /** A mirror, or a copy of changes only: writes the rows that differ (a mirror also deletes the extra ones). */
    public static boolean writesDifferences(ScanSpec spec) {
        return spec.getMirror() || spec.getChangedOnly();
    }

    /** The step's result (batches for a mirror, none for a verify) with what the comparison found. */
    public ItemHandler.Result result(ScanSpec spec, ScanQuery item, StepResult step, int depth, String continued,
            ItemContext context) {
        ItemHandler.Result read = StepItems.result(spec, step, depth, continued);
        if (spec.getDestination() == null) {
            throw new IllegalArgumentException("a verify or mirror names a destination table");
        }
        String table = spec.getDestination().getTable();
        TableStore destination = settings.store(spec.getDestination().getAccount(), context);
        RangeComparer.Outcome outcome = RangeComparer.compare(spec.getScanId(), item, step,
                StepItems.reader(destination, table, spec));
        RowMerge.Result merge = outcome.merge();
        List<SpecificRecord> emitted = new ArrayList<>(read.emitted());
        if (writesDifferences(spec)) { // written (and deleted) by the copy-worker once this transaction commits
            emitted.addAll(EntityBatcher.batches(spec, merge.toWrite()));
        }
        if (spec.getMirror()) {
            emitted.addAll(EntityBatcher.deletes(spec, merge.extra()));
        }
        String topic = settings.kafka().namespace().differences();
        byte[] key = spec.getScanId().getBytes(StandardCharsets.UTF_8);
        for (Difference difference : merge.differences()) {
            if (spec.getMirror() && difference.getKind() == DifferenceKind.EXTRA) {
                difference.setDeleted(true);
            }
            context.publish(topic, key, serializer.serialize(topic, difference), Map.of());
        }
        return new ItemHandler.Result(emitted, read.rowsRead(), read.rowsWritten(),
                read.requests() + outcome.requests(), read.partitions(), new ItemHandler.Compared(merge.missing(),
                        merge.differing(), merge.extraCount(), 0));
    }
}
