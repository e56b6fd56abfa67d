package io.tablescan.table;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import java.util.List;
import java.util.function.Supplier;

/**
 * A table store that runs every request of another one through {@link #call}: retries, injected faults, back-off,
 * rate caps. A new operation added here reaches every one of them.
 */
abstract class InterceptingTableStore implements TableStore {
    protected final TableStore store;

    InterceptingTableStore(TableStore store) {
        this.store = store;
    }

    /** Runs one request of the wrapped store; {@code operation} is query, upsert, create or exists. */
    protected abstract <T> T call(String operation, Supplier<T> request);

    /**
     * Runs a query, upsert or batch of deletes of {@code target} (what rate caps and back-off need); by default as any
     * request.
     */
    protected <T> T call(String operation, Target target, Supplier<T> request) {
        return call(operation, request);
    }

    /**
     * What a read or write is of: its table, the one partition it touches (null: a range of partitions) and the
     * rows it may move (a query's page size, an upsert's rows).
     */
    protected record Target(String table, String partitionKey, int rows) {}

    @Override
    public final Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        String partition = query instanceof PartitionRange p ? p.partitionKey() : null;
        return call("query", new Target(table, partition, options.pageSize()),
                () -> store.query(table, query, options, from));
    }

    @Override
    public final Row read(String table, String partitionKey, String rowKey) {
        return call("query", new Target(table, partitionKey, 1), () -> store.read(table, partitionKey, rowKey));
    }

    @Override
    public final void upsert(String table, String partitionKey, List<Row> rows) {
        call("upsert", new Target(table, partitionKey, rows.size()), () -> {
            store.upsert(table, partitionKey, rows);
            return null;
        });
    }

    @Override
    public final void merge(String table, String partitionKey, List<Row> rows) {
        call("upsert", new Target(table, partitionKey, rows.size()), () -> {
            store.merge(table, partitionKey, rows);
            return null;
        });
    }

    @Override
    public final Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
        return call("upsert", new Target(table, partitionKey, rows.size()),
                () -> store.writeIfUnchanged(table, partitionKey, rows, etags));
    }

    @Override
    public final void createTableIfNotExists(String table) {
        call("create", () -> {
            store.createTableIfNotExists(table);
            return null;
        });
    }

    @Override
    public final boolean delete(String table, String partitionKey, String rowKey) {
        return call("delete", () -> store.delete(table, partitionKey, rowKey));
    }

    @Override
    public final Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
        return call("delete", new Target(table, partitionKey, rows.size()),
                () -> store.deleteIfUnchanged(table, partitionKey, rows));
    }

    @Override
    public final boolean tableExists(String table) {
        return call("exists", () -> store.tableExists(table));
    }
}
