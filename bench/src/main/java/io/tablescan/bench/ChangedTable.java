package io.tablescan.bench;

import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A generated table with changes over it: rows written since (updates and inserts, each with the Timestamp of its
 * write) and rows deleted, kept by key, so that millions of rows still cost only their changes in memory. The
 * generated rows carry one Timestamp from before any backup ({@link #BASE_TICKS}), as rows written long ago do.
 */
final class ChangedTable implements InMemoryTableStore.Rows {
    /** 2026-01-01T00:00:00Z in 100 ns ticks: when the generated rows were written. */
    static final long BASE_TICKS = ticks(Instant.parse("2026-01-01T00:00:00Z"));

    record Key(String partitionKey, String rowKey) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            int c = partitionKey.compareTo(other.partitionKey); // ordinal UTF-16, as the service orders keys
            return c != 0 ? c : rowKey.compareTo(other.rowKey);
        }
    }

    private final GeneratedTable base;
    private final ConcurrentSkipListMap<Key, Row> written = new ConcurrentSkipListMap<>();
    private final Set<Key> deleted = ConcurrentHashMap.newKeySet();

    ChangedTable(GeneratedTable base) {
        this.base = base;
    }

    GeneratedTable base() {
        return base;
    }

    @Override
    public Iterable<Row> from(String partitionKey, String rowKey) {
        return () -> new Iterator<>() {
            private final Iterator<Row> generated = base.from(partitionKey, rowKey).iterator();
            private final Iterator<Row> changed = written.tailMap(new Key(partitionKey, rowKey), true).values()
                    .iterator();
            private Row g = nextGenerated();
            private Row c = changed.hasNext() ? changed.next() : null;

            private Row nextGenerated() {
                while (generated.hasNext()) {
                    Row row = generated.next();
                    if (deleted.isEmpty() || !deleted.contains(new Key(row.partitionKey(), row.rowKey()))) {
                        return row;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return g != null || c != null;
            }

            @Override
            public Row next() {
                if (g == null && c == null) {
                    throw new NoSuchElementException();
                }
                int order = g == null ? 1 : c == null ? -1 : key(g).compareTo(key(c));
                if (order < 0) {
                    Row row = g;
                    g = nextGenerated();
                    return row;
                }
                Row row = c; // an insert, or an update replacing the generated row of its key
                c = changed.hasNext() ? changed.next() : null;
                if (order == 0) {
                    g = nextGenerated();
                }
                return row;
            }
        };
    }

    @Override
    public String firstRowKey(String partitionKey) {
        for (Row row : from(partitionKey, "")) {
            return row.partitionKey().equals(partitionKey) ? row.rowKey() : null;
        }
        return null;
    }

    @Override
    public void put(Row row) {
        put(row, ticks(Instant.now()));
    }

    @Override
    public void put(Row row, long timestamp) {
        Key key = key(row);
        written.put(key, new Row(row.partitionKey(), row.rowKey(), row.properties(), timestamp));
        deleted.remove(key);
    }

    @Override
    public Long timestamp(Row row) {
        return row.timestamp() != null ? row.timestamp() : BASE_TICKS;
    }

    @Override
    public List<Row> all() {
        List<Row> all = new ArrayList<>();
        from("", "").forEach(all::add);
        return all;
    }

    @Override
    public boolean remove(String partitionKey, String rowKey) {
        Key key = new Key(partitionKey, rowKey);
        boolean generated = inBase(key) && !deleted.contains(key);
        boolean wasWritten = written.remove(key) != null;
        if (inBase(key)) {
            deleted.add(key);
        }
        return generated || wasWritten;
    }

    /** Whether the generated rows hold this key (deleted or not). */
    private boolean inBase(Key key) {
        int p = base.partitionNamed(key.partitionKey());
        if (p < 0 || !key.rowKey().matches("\\d{7}")) {
            return false;
        }
        return Integer.parseInt(key.rowKey()) < base.partitionSize(p);
    }

    private static Key key(Row row) {
        return new Key(row.partitionKey(), row.rowKey());
    }

    static long ticks(Instant t) {
        return t.getEpochSecond() * 10_000_000L + t.getNano() / 100;
    }
}
