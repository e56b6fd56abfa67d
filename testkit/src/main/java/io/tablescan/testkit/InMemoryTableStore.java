package io.tablescan.testkit;

import io.tablescan.azure.ODataFilter;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A table service in memory that keeps the real service's rules: rows in ordinal UTF-16 order of
 * PartitionKey then RowKey, at most 1,000 rows a page, continuations of the service's shape, batches of one
 * partition. With an {@link Adversary} it also pages the way Azure may and Azurite never does: short pages
 * and empty pages that still carry a continuation, and continuations without a NextRowKey.
 *
 * <p>Over 300 lines on purpose: it is one fake of one service, whose paging, filters, Timestamps, ETags and
 * conditional writes answer each other (a write's Timestamp is what a filter and an ETag see), so each rule is
 * read next to the others; its default rows are {@link MapRows}.
 */
public final class InMemoryTableStore implements TableStore {
    /** Seeded misbehaviour, all of it within what the service is documented to do. */
    public record Adversary(long seed, double shortPages, double emptyPages, double tokensWithoutRowKey) {
        public static final Adversary NONE = new Adversary(0, 0, 0, 0);
    }

    /** The rows of one table in key order: a sorted map by default; a benchmark plugs in generated tables. */
    public interface Rows {
        /** The rows at or after (partitionKey, rowKey), in key order. */
        Iterable<Row> from(String partitionKey, String rowKey);

        /** The first row key of a partition, or null when it has no rows. */
        String firstRowKey(String partitionKey);

        void put(Row row);

        /** Puts a row the service wrote at {@code timestamp} (100 ns ticks); a generated table ignores the time. */
        default void put(Row row, long timestamp) {
            put(row);
        }

        /** The service's Timestamp of a row put with one, else null. */
        default Long timestamp(Row row) {
            return null;
        }

        /** Every row in key order. */
        List<Row> all();

        /** Removes a row; false when it was not there. */
        default boolean remove(String partitionKey, String rowKey) {
            throw new UnsupportedOperationException("a generated table cannot delete rows");
        }
    }

    record RowId(String partitionKey, String rowKey) {}

    private final Map<String, Rows> tables = new ConcurrentHashMap<>();
    private final AtomicLong lastWrite = new AtomicLong();
    private AccountPace pace = ScalabilityTargets.NONE.newPace();
    private final Adversary adversary;
    private final Random random;
    private final Duration latency;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong rowsServed = new AtomicLong();

    public InMemoryTableStore() {
        this(Adversary.NONE, Duration.ZERO);
    }

    public InMemoryTableStore(Adversary adversary, Duration latency) {
        this.adversary = adversary;
        this.random = new Random(adversary.seed());
        this.latency = latency;
    }

    public long requests() {
        return requests.get();
    }

    /** Rows this account answered queries with, as the service would count them. */
    public long rowsServed() {
        return rowsServed.get();
    }

    /** Paces reads and writes like the service's per-account and per-partition targets, for this account alone. */
    public InMemoryTableStore limit(ScalabilityTargets targets) {
        this.pace = targets.newPace();
        return this;
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        request();
        // The filter text the Azure adapter would send is what decides which rows match; the query's bounds
        // only tell where to start and stop walking the sorted rows.
        Predicate<Row> filter = ODataPredicate.parse(ODataFilter.of(query, options.rowFilter()));
        Rows rows = existing(table);
        boolean onTimestamp = options.rowFilter() != null && options.rowFilter().contains("Timestamp");
        RowId start = from != null
                ? new RowId(from.nextPartitionKey(), from.nextRowKey() == null ? "" : from.nextRowKey())
                : startOf(query);
        int limit = pageLimit(options.pageSize());
        List<Row> page = new ArrayList<>();
        Row next = null;
        for (Row row : rows.from(start.partitionKey(), start.rowKey())) {
            if (pastEnd(query, row.partitionKey())) {
                break;
            }
            if (!filter.test(onTimestamp ? asFiltered(rows, row) : row)) {
                continue;
            }
            if (page.size() == limit) {
                next = row;
                break;
            }
            page.add(project(row, rows.timestamp(row), options.select()));
        }
        pace.pace(page);
        rowsServed.addAndGet(page.size());
        return new Page(page, next == null ? null : continuation(rows, next));
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> batch) {
        request();
        Rows rows = existing(table);
        if (batch.isEmpty() || batch.size() > 100) {
            throw new TableStoreException("a batch holds 1 to 100 rows, got " + batch.size(), 400, false, null);
        }
        var seen = new HashSet<String>();
        for (Row row : batch) {
            if (!row.partitionKey().equals(partitionKey)) {
                throw new TableStoreException("a batch holds rows of one partition", 400, false, null);
            }
            if (!seen.add(row.rowKey())) {
                throw new TableStoreException("a batch holds each row once", 400, false, null);
            }
        }
        pace.pace(batch);
        for (Row row : batch) {
            rows.put(row, writeTime());
        }
    }

    /** As the service's MERGE: properties the written row lacks are kept, a missing row inserted. */
    @Override
    public synchronized void merge(String table, String partitionKey, List<Row> batch) {
        Rows rows = existing(table);
        List<Row> merged = new ArrayList<>();
        for (Row row : batch) {
            Row held = row.partitionKey().equals(partitionKey) ? first(rows, partitionKey, row.rowKey()) : null;
            Map<String, RowProperty> properties = new java.util.LinkedHashMap<>();
            if (held != null) {
                held.properties().forEach(p -> properties.put(p.name(), p));
            }
            row.properties().forEach(p -> properties.put(p.name(), p));
            merged.add(new Row(row.partitionKey(), row.rowKey(), List.copyOf(properties.values())));
        }
        upsert(table, partitionKey, merged);
    }

    /** As the service does: all or none; the first row that exists (an insert's) or changed refuses the batch. */
    @Override
    public synchronized Refusal writeIfUnchanged(String table, String partitionKey, List<Row> batch,
            List<String> etags) {
        Rows rows = existing(table);
        for (int i = 0; i < batch.size(); i++) {
            Row held = first(rows, partitionKey, batch.get(i).rowKey());
            String etag = etags.get(i);
            if (etag == null ? held != null : held == null || !etag.equals(etag(rows.timestamp(held)))) {
                request();
                return new Refusal(i, etag != null && held == null);
            }
        }
        upsert(table, partitionKey, batch);
        return null;
    }

    /** Not under the store's lock: point reads, like queries, wait out their latency side by side. */
    @Override
    public Row read(String table, String partitionKey, String rowKey) {
        request();
        Rows rows = existing(table);
        Row row = first(rows, partitionKey, rowKey);
        return row == null ? null : project(row, rows.timestamp(row), null);
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        request();
        return existing(table).remove(partitionKey, rowKey);
    }

    /**
     * As the service does: all or none; the first row gone (404) or of another ETag (412) refuses the batch. A row's
     * ETag here is its write's Timestamp; a row without one (a generated table's) matches only {@code *}.
     */
    @Override
    public synchronized Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> batch) {
        request();
        Rows rows = existing(table);
        if (batch.isEmpty() || batch.size() > 100) {
            throw new TableStoreException("a batch holds 1 to 100 rows, got " + batch.size(), 400, false, null);
        }
        for (int i = 0; i < batch.size(); i++) {
            Version v = batch.get(i);
            Row row = first(rows, partitionKey, v.rowKey());
            if (row == null) {
                return new Refusal(i, true);
            }
            if (v.etag() != null && !v.etag().equals(etag(rows.timestamp(row)))) {
                return new Refusal(i, false);
            }
        }
        batch.forEach(v -> rows.remove(partitionKey, v.rowKey()));
        return null;
    }

    private static Row first(Rows rows, String partitionKey, String rowKey) {
        for (Row row : rows.from(partitionKey, rowKey)) {
            return row.partitionKey().equals(partitionKey) && row.rowKey().equals(rowKey) ? row : null;
        }
        return null;
    }

    /** The ETag of a row written at {@code timestamp}: one a write changes, as the service's. */
    static String etag(Long timestamp) {
        return timestamp == null ? null : "W/\"datetime'" + timestamp + "'\"";
    }

    /** Now in 100 ns ticks, and after every earlier write's: the service's clock as a filter on Timestamp sees it. */
    private long writeTime() {
        Instant now = Instant.now();
        long ticks = now.getEpochSecond() * 10_000_000L + now.getNano() / 100;
        return lastWrite.updateAndGet(last -> Math.max(last + 1, ticks));
    }

    /** The row as a filter sees it: with the service's Timestamp (never returned as a property of the row). */
    private static Row asFiltered(Rows rows, Row row) {
        Long timestamp = rows.timestamp(row);
        if (timestamp == null) {
            return row; // a generated table's: no Timestamp, so no filter on it matches
        }
        List<RowProperty> properties = new ArrayList<>(row.properties());
        properties.add(new RowProperty("Timestamp", EdmType.DATETIME, timestamp));
        return new Row(row.partitionKey(), row.rowKey(), properties);
    }

    @Override
    public void createTableIfNotExists(String table) {
        request();
        tables.computeIfAbsent(table, t -> new MapRows());
    }

    @Override
    public boolean tableExists(String table) {
        request();
        return tables.containsKey(table);
    }

    /** Makes {@code rows} the table {@code table} (generated or checking tables of a benchmark). */
    public void attach(String table, Rows rows) {
        tables.put(table, rows);
    }

    /** Every row of a table in key order (no request counted): the plain sorted listing tests compare with. */
    public List<Row> rows(String table) {
        return existing(table).all();
    }

    private Rows existing(String table) {
        Rows rows = tables.get(table);
        if (rows == null) {
            throw new TableStoreException("HTTP 404 TableNotFound: table " + table, 404, false, null);
        }
        return rows;
    }

    private void request() {
        requests.incrementAndGet();
        if (!latency.isZero()) {
            try {
                Thread.sleep(latency);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TableStoreException("interrupted", 0, true, e);
            }
        }
    }

    private int pageLimit(int pageSize) {
        synchronized (random) {
            double dice = random.nextDouble();
            if (dice < adversary.emptyPages()) {
                return 0;
            }
            if (dice < adversary.emptyPages() + adversary.shortPages()) {
                return random.nextInt(pageSize);
            }
            return pageSize;
        }
    }

    private Continuation continuation(Rows rows, Row next) {
        // Without a NextRowKey the query resumes at the partition's start: only right when nothing precedes.
        boolean firstOfPartition = next.rowKey().equals(rows.firstRowKey(next.partitionKey()));
        boolean dropRowKey;
        synchronized (random) {
            dropRowKey = firstOfPartition && random.nextDouble() < adversary.tokensWithoutRowKey();
        }
        String rowKey = dropRowKey ? null : next.rowKey();
        return new Continuation(next.partitionKey() + "\u0000" + rowKey, next.partitionKey(), rowKey);
    }

    private static RowId startOf(ScanQuery query) {
        return switch (query) {
            case KeyRange range -> range.lower() == null ? new RowId("", "")
                    : new RowId(range.lower().key(), range.lowerRow() == null ? "" : range.lowerRow().key());
            case PartitionRange partition -> new RowId(partition.partitionKey(),
                    partition.rowLower() == null ? "" : partition.rowLower().key());
        };
    }

    private static boolean pastEnd(ScanQuery query, String partitionKey) {
        return switch (query) {
            case KeyRange range -> range.upper() != null && partitionKey.compareTo(range.upper()) >= 0;
            case PartitionRange partition -> partitionKey.compareTo(partition.partitionKey()) > 0;
        };
    }

    /** The row as the service returns it: its Timestamp too, unless a $select leaves it out. */
    private static Row project(Row row, Long timestamp, List<String> select) {
        if (select == null) { // as stored when it holds that Timestamp already (a generated table: none): no copy
            return Objects.equals(timestamp, row.timestamp()) && Objects.equals(etag(timestamp), row.etag()) ? row
                    : new Row(row.partitionKey(), row.rowKey(), row.properties(), timestamp, etag(timestamp));
        }
        List<RowProperty> kept = row.properties().stream().filter(p -> select.contains(p.name())).toList();
        return new Row(row.partitionKey(), row.rowKey(), kept, select.contains("Timestamp") ? timestamp : null,
                etag(timestamp));
    }
}
