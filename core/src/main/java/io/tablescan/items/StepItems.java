package io.tablescan.items;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.StepResult;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.ScanQuery;
import io.tablescan.table.TableStore;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** What the read steps share: how they read the source, and what they emit. */
public final class StepItems {
    private StepItems() {}

    /** One page per call from the scan's source table, with the scan's page size, projection and filter. */
    public static PageReader reader(TableStore source, ScanSpec spec) {
        QueryOptions options = new QueryOptions(spec.getPageSize(), spec.getSelect(), spec.getRowFilter());
        String table = spec.getSource().getTable();
        return (query, from) -> source.query(table, query, options, from);
    }

    /** The step's rows as entity batches, and its handed-off work as items one level deeper. */
    public static ItemHandler.Result result(ScanSpec spec, StepResult step, int depth) {
        List<SpecificRecord> emitted = new ArrayList<>(EntityBatcher.batches(spec, step.rows()));
        for (ScanQuery handoff : step.handoffs()) {
            emitted.add(WorkItems.item(spec, handoff, depth + 1));
        }
        return new ItemHandler.Result(emitted, step.rows().size(), 0, step.requests());
    }
}
