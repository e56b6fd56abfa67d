package io.tablescan.examples.swapkeys;

import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.List;

/**
 * Writes each row with its keys swapped (PartitionKey := RowKey, RowKey := PartitionKey), properties unchanged:
 * an index of the source by RowKey. Each write is an upsert-replace of whole rows, so a replayed batch (after a
 * crash or a retry) leaves the same table. The rows of a batch share a PartitionKey and have distinct RowKeys,
 * so swapped, each row is a partition of its own: one request per row. A failed request fails the batch, and the
 * worker writes it again whole (rows already written are rewritten alike), so every request of one attempt must
 * succeed: fine at the service's usual failure rates. No state: safe from many threads.
 */
final class SwapKeysSink implements RowSink {
    private final TableStore store;
    private final String table;

    SwapKeysSink(TableStore store, String table) {
        this.store = store;
        this.table = table;
    }

    /** Creates the target table if missing; called once before the first write (again if it failed). */
    @Override
    public void prepare() {
        try {
            store.createTableIfNotExists(table);
        } catch (TableStoreException e) {
            throw failure(e);
        }
    }

    @Override
    public int write(List<Row> rows) {
        try {
            for (Row row : rows) {
                store.upsert(table, row.rowKey(), List.of(swapped(row)));
            }
            return rows.size();
        } catch (TableStoreException e) {
            throw failure(e); // the whole batch is written again: rows already written are rewritten alike
        }
    }

    static Row swapped(Row row) {
        return new Row(row.rowKey(), row.partitionKey(), row.properties());
    }

    /** Transient or throttled as the service said (the worker retries those), else permanent (parked). */
    private static SinkException failure(TableStoreException e) {
        if (e.status() == 429 || e.status() == 503) {
            return SinkException.throttled(e.getMessage(), e);
        }
        return new SinkException(e.getMessage(), e.isTransient(), e);
    }
}
