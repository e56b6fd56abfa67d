package io.tablescan.table;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import java.util.List;
import java.util.function.Supplier;

/** A table store that runs every request of another one through {@link #call}: retries, injected faults. */
abstract class InterceptingTableStore implements TableStore {
    protected final TableStore store;

    InterceptingTableStore(TableStore store) {
        this.store = store;
    }

    /** Runs one request of the wrapped store; {@code operation} is query, upsert, create or exists. */
    protected abstract <T> T call(String operation, Supplier<T> request);

    @Override
    public final Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        return call("query", () -> store.query(table, query, options, from));
    }

    @Override
    public final void upsert(String table, String partitionKey, List<Row> rows) {
        call("upsert", () -> {
            store.upsert(table, partitionKey, rows);
            return null;
        });
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
        return call("delete", () -> store.deleteIfUnchanged(table, partitionKey, rows));
    }

    @Override
    public final boolean tableExists(String table) {
        return call("exists", () -> store.tableExists(table));
    }
}
