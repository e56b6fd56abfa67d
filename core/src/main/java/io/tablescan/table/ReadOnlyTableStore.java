package io.tablescan.table;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.List;

/** An account's read-access secondary: queries only; every write is refused (the secondary takes none). */
final class ReadOnlyTableStore implements TableStore {
    private final TableStore store;

    ReadOnlyTableStore(TableStore store) {
        this.store = store;
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        return store.query(table, query, options, from);
    }

    @Override
    public Row read(String table, String partitionKey, String rowKey) {
        return store.read(table, partitionKey, rowKey);
    }

    @Override
    public boolean tableExists(String table) {
        return store.tableExists(table);
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        throw refused(table);
    }

    @Override
    public void createTableIfNotExists(String table) {
        throw refused(table);
    }

    private static TableStoreException refused(String table) {
        return new TableStoreException("the read-access secondary takes no write (table " + table + ")", 400, false,
                null);
    }
}
