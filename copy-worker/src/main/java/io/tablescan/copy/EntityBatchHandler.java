package io.tablescan.copy;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.scanner.TableRow;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.TableRef;
import io.tablescan.table.TableStore;
import io.tablescan.table.TableStoreException;
import java.util.List;

/**
 * Writes one entity batch to the scan's destination as one transaction of UPSERT_REPLACE operations: a
 * replayed batch rewrites the same rows, so the destination converges to the source.
 */
public final class EntityBatchHandler implements ItemHandler<EntityBatch> {
    private final WorkerSettings settings;

    public EntityBatchHandler(WorkerSettings settings) {
        this.settings = settings;
    }

    @Override
    public Class<EntityBatch> type() {
        return EntityBatch.class;
    }

    @Override
    public Result handle(EntityBatch batch) {
        TableRef destination = batch.getSpec().getDestination();
        if (destination == null) {
            return new Result(List.of(), 0, 0, 0); // a scan without a destination: other consumers use the batches
        }
        List<TableRow> rows = batch.getEntities().stream()
                .map(e -> new TableRow(batch.getPartitionKey(), e.getRowKey(), e.getProperties()))
                .toList();
        TableStore store = settings.store(destination.getAccount());
        int requests = 1;
        try {
            store.upsert(destination.getTable(), batch.getPartitionKey(), rows);
        } catch (TableStoreException e) {
            if (e.status() != 404) {
                throw e;
            }
            store.createTableIfNotExists(destination.getTable()); // the destination is created on first write
            store.upsert(destination.getTable(), batch.getPartitionKey(), rows);
            requests += 2;
        }
        return new Result(List.of(), 0, rows.size(), requests);
    }
}
