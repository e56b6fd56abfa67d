package io.tablescan.jobs;

import io.tablescan.compare.TableReads;
import io.tablescan.job.Jobs;
import io.tablescan.items.EntityBatcher;
import io.tablescan.items.WorkItems;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.PartitionCount;
import io.tablescan.scanner.StepResult;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** What the read steps share: how they read the source, and what they emit. */
public final class StepItems {
    private StepItems() {}

    /**
     * One page per call from the scan's source table, with the scan's page size, projection and filter. A job that
     * reads the keys only (a count) has an empty projection, to which every store adds PartitionKey and RowKey.
     */
    public static PageReader reader(TableStore source, ScanSpec spec) {
        return reader(source, spec.getSource().getTable(), spec);
    }

    /** One page per call from {@code table} of {@code store}, read as the scan reads its source. */
    public static PageReader reader(TableStore store, String table, ScanSpec spec) {
        List<String> select = Jobs.of(spec).keysOnly() ? List.of() : spec.getSelect();
        QueryOptions options = new QueryOptions(spec.getPageSize(), select, spec.getRowFilter());
        return (query, from) -> store.query(table, query, options, from);
    }

    /**
     * {@code table} of {@code store} with the scan's projection, in pages of a size and with a filter chosen per read:
     * a comparison's, which reads the destination under the source rows' keys whatever the scan's selection.
     */
    public static TableReads reads(TableStore store, String table, ScanSpec spec) {
        List<String> select = Jobs.of(spec).keysOnly() ? List.of() : spec.getSelect();
        return (pageSize, rowFilter) -> {
            QueryOptions options = new QueryOptions(pageSize, select, rowFilter);
            return (query, from) -> store.query(table, query, options, from);
        };
    }

    /**
     * The step's rows as entity batches if {@code emitRows} (its job's choice), and its handed-off work as items one
     * level deeper. {@code continued}: the item's, see {@link PartitionCount}.
     */
    public static ItemHandler.Result result(ScanSpec spec, StepResult step, int depth, String continued,
            boolean emitRows) {
        List<SpecificRecord> emitted = new ArrayList<>(emitRows ? EntityBatcher.batches(spec, step.rows()) : List.of());
        for (ScanQuery handoff : step.handoffs()) {
            emitted.add(WorkItems.item(spec, handoff, depth + 1,
                    PartitionCount.continuedBy(handoff, continued, step.rows())));
        }
        return new ItemHandler.Result(emitted, step.rows().size(), 0, step.requests(),
                PartitionCount.counted(continued, step.rows()));
    }
}
