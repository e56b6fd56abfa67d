package io.tablescan.testkit;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test helper: a table store that fails its next requests as told, deterministically (unlike
 * {@link FaultInjectingTableStore}, which draws at random), and counts the requests of each kind.
 */
public final class ScriptedFailures implements TableStore {
    private final TableStore store;
    private final AtomicInteger queries = new AtomicInteger();
    private final AtomicInteger upserts = new AtomicInteger();
    private final AtomicInteger creates = new AtomicInteger();
    private final AtomicInteger queryFailures = new AtomicInteger();
    private volatile TableStoreException queryFailure;
    private final AtomicInteger upsertFailures = new AtomicInteger();
    private volatile TableStoreException upsertFailure;
    private volatile boolean applyBeforeFailing;

    public ScriptedFailures(TableStore store) {
        this.store = store;
    }

    /** The next {@code times} queries fail with {@code failure} (Integer.MAX_VALUE: all of them). */
    public ScriptedFailures failQueries(int times, TableStoreException failure) {
        queryFailures.set(times);
        queryFailure = failure;
        return this;
    }

    /**
     * The next {@code times} writes (upserts and merges) fail with {@code failure}; with {@code applied} the rows are written first,
     * as when a response is lost after the service applied the request (a 500 OperationTimedOut, a dropped
     * connection).
     */
    public ScriptedFailures failUpserts(int times, TableStoreException failure, boolean applied) {
        upsertFailures.set(times);
        upsertFailure = failure;
        applyBeforeFailing = applied;
        return this;
    }

    public static TableStoreException busy() {
        return new TableStoreException("HTTP 503 ServerBusy (scripted)", 503, true, null);
    }

    public static TableStoreException timeout() {
        return new TableStoreException("HTTP 500 OperationTimedOut (scripted)", 500, true, null);
    }

    public static TableStoreException forbidden() {
        return new TableStoreException("HTTP 403 AuthorizationFailure (scripted)", 403, false, null);
    }

    public int queries() {
        return queries.get();
    }

    public int upserts() {
        return upserts.get();
    }

    public int creates() {
        return creates.get();
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        queries.incrementAndGet();
        if (take(queryFailures)) {
            throw queryFailure;
        }
        return store.query(table, query, options, from);
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        upserts.incrementAndGet();
        if (take(upsertFailures)) {
            if (applyBeforeFailing) {
                store.upsert(table, partitionKey, rows);
            }
            throw upsertFailure;
        }
        store.upsert(table, partitionKey, rows);
    }

    @Override
    public void createTableIfNotExists(String table) {
        creates.incrementAndGet();
        store.createTableIfNotExists(table);
    }

    private static boolean take(AtomicInteger failures) {
        return failures.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    @Override
    public boolean tableExists(String table) {
        return store.tableExists(table);
    }

    @Override
    public void merge(String table, String partitionKey, List<Row> rows) {
        upserts.incrementAndGet();
        if (take(upsertFailures)) {
            if (applyBeforeFailing) {
                store.merge(table, partitionKey, rows);
            }
            throw upsertFailure;
        }
        store.merge(table, partitionKey, rows);
    }

    @Override
    public Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
        return store.writeIfUnchanged(table, partitionKey, rows, etags);
    }

    @Override
    public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
        return store.deleteIfUnchanged(table, partitionKey, rows);
    }
}
