package io.tablescan.rate;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.List;
import java.util.function.Supplier;

/**
 * An account's store, shared by a process's items, that slows down when the service throttles (429, 503): every
 * attempt, retries included, waits for the account's and its partition's {@link Backoff} pace, so a throttled
 * account sees fewer requests instead of retries at full speed.
 */
public final class BackoffTableStore implements TableStore {
    private final TableStore store;
    private final Backoff backoff;

    public BackoffTableStore(TableStore store, String alias) {
        this.store = store;
        this.backoff = new Backoff(alias);
    }

    public Backoff backoff() {
        return backoff;
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        String partition = query instanceof PartitionRange p ? p.partitionKey() : null;
        return call(partition, () -> store.query(table, query, options, from));
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        call(partitionKey, () -> {
            store.upsert(table, partitionKey, rows);
            return null;
        });
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        return call(partitionKey, () -> store.delete(table, partitionKey, rowKey));
    }

    @Override
    public void createTableIfNotExists(String table) {
        call(null, () -> {
            store.createTableIfNotExists(table);
            return null;
        });
    }

    @Override
    public boolean tableExists(String table) {
        return call(null, () -> store.tableExists(table));
    }

    @Override
    public boolean deleteTable(String table) {
        return call(null, () -> store.deleteTable(table));
    }

    private <T> T call(String partition, Supplier<T> request) {
        try {
            backoff.before(partition);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TableStoreException("interrupted while backing off", 0, true, e);
        }
        try {
            T result = request.get();
            backoff.passed(partition);
            return result;
        } catch (TableStoreException e) {
            if (e.status() == 429 || e.status() == 503) {
                backoff.throttled(partition);
            }
            throw e;
        }
    }
}
