package io.tablescan.rate;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A model account for the rate tests: every query returns a full page of new rows; upserts are kept; above
 * {@code throttleAbove} requests a second (0: never) it answers half the requests with 503, as a busy service does.
 */
final class FakeStore implements TableStore {
    final AtomicLong rowsRead = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong throttled = new AtomicLong();
    final AtomicLong rowsDeleted = new AtomicLong();
    final Map<String, Row> rows = new ConcurrentHashMap<>();
    private final int throttleAbove;
    private long windowStart = System.nanoTime();
    private int inWindow;
    private boolean odd;

    FakeStore(int throttleAbove) {
        this.throttleAbove = throttleAbove;
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        admit();
        List<Row> page = new ArrayList<>();
        for (int i = 0; i < options.pageSize(); i++) {
            page.add(new Row("p", Long.toString(rowsRead.incrementAndGet()), List.of()));
        }
        return new Page(page, null);
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> batch) {
        admit();
        batch.forEach(row -> rows.put(row.partitionKey() + "/" + row.rowKey(), row));
    }

    private synchronized void admit() {
        requests.incrementAndGet();
        long now = System.nanoTime();
        if (now - windowStart >= 1_000_000_000L) {
            windowStart = now;
            inWindow = 0;
        }
        if (throttleAbove > 0 && inWindow >= throttleAbove && (odd = !odd)) {
            throttled.incrementAndGet();
            throw new TableStoreException("503 ServerBusy", 503, true, null);
        }
        inWindow++;
    }

    @Override
    public void createTableIfNotExists(String table) {}

    /** Deletes every row asked for (counted in {@link #rowsDeleted}). */
    @Override
    public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> batch) {
        requests.incrementAndGet();
        rowsDeleted.addAndGet(batch.size());
        return null;
    }

    @Override
    public boolean tableExists(String table) {
        return true;
    }
}
