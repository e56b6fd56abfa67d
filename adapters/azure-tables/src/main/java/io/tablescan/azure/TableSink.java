package io.tablescan.azure;

import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.List;

/**
 * Writes each batch to a table as one transaction of UPSERT_REPLACE operations: a replayed batch rewrites the
 * same rows, so the destination converges to the source. A failed request becomes a {@link SinkException},
 * transient or throttled as the service said, which the worker retries with its backoff and counts.
 */
final class TableSink implements RowSink {
    private final TableStore store;
    private final String table;

    TableSink(TableStore store, String table) {
        this.store = store;
        this.table = table;
    }

    /**
     * Nothing: the table is created on the first write that finds it missing. Checking first would cost a
     * request per sink even when the table exists, and a table deleted mid-scan is created again.
     */
    @Override
    public void prepare() {}

    @Override
    public int write(List<Row> rows) {
        String partitionKey = rows.getFirst().partitionKey();
        try {
            try {
                store.upsert(table, partitionKey, rows);
                return 1;
            } catch (TableStoreException e) {
                if (!AzureTableStore.notFound(e)) { // a 404 without the service's code is not a missing table
                    throw e;
                }
                store.createTableIfNotExists(table); // the destination is created on first write
                store.upsert(table, partitionKey, rows);
                return 3;
            }
        } catch (TableStoreException e) {
            throw e.status() == 429 || e.status() == 503 ? SinkException.throttled(e.getMessage(), e)
                    : new SinkException(e.getMessage(), e.isTransient(), e);
        }
    }
}
