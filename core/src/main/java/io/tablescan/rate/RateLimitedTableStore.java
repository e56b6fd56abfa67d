package io.tablescan.rate;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.List;

/**
 * One item's store of a capped scan: a read of the source takes a page's worth of the read share first and gives
 * back what the page did not hold; a write to the destination takes its rows' worth of the write share. Other
 * requests (the destination's reads of a verify, table admin) pass as they are.
 */
final class RateLimitedTableStore implements TableStore {
    private final TableStore store;
    private final String source;
    private final Lane read;
    private final String destination;
    private final Lane write;

    RateLimitedTableStore(TableStore store, String source, Lane read, String destination, Lane write) {
        this.store = store;
        this.source = source;
        this.read = read;
        this.destination = destination;
        this.write = write;
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        if (read.cap <= 0 || !table.equals(source)) {
            return store.query(table, query, options, from);
        }
        int taken = options.pageSize();
        begin(read, taken);
        long used = 0;
        try {
            Page page = store.query(table, query, options, from);
            used = page.rows().size();
            return page;
        } finally {
            read.done(taken, used);
        }
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        if (write.cap <= 0 || !table.equals(destination)) {
            store.upsert(table, partitionKey, rows);
            return;
        }
        begin(write, rows.size());
        try {
            store.upsert(table, partitionKey, rows);
        } finally {
            write.done(rows.size(), rows.size());
        }
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        if (write.cap <= 0 || !table.equals(destination)) {
            return store.delete(table, partitionKey, rowKey);
        }
        begin(write, 1);
        try {
            return store.delete(table, partitionKey, rowKey);
        } finally {
            write.done(1, 1);
        }
    }

    @Override
    public void createTableIfNotExists(String table) {
        store.createTableIfNotExists(table);
    }

    @Override
    public boolean tableExists(String table) {
        return store.tableExists(table);
    }

    @Override
    public boolean deleteTable(String table) {
        return store.deleteTable(table);
    }

    private static void begin(Lane lane, double n) {
        try {
            lane.begin(n);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TableStoreException("interrupted while waiting for the scan's rate cap", 0, true, e);
        }
    }
}
