package io.tablescan.testkit;

import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore.RowId;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** An in-memory table's rows by default: every row in a concurrent sorted map, in the service's key order. */
final class MapRows implements InMemoryTableStore.Rows {
    private static final Comparator<RowId> ORDER =
            Comparator.comparing(RowId::partitionKey).thenComparing(RowId::rowKey);
    private final NavigableMap<RowId, Row> rows = new ConcurrentSkipListMap<>(ORDER);
    private final Map<RowId, Long> timestamps = new ConcurrentHashMap<>();

    @Override
    public Iterable<Row> from(String partitionKey, String rowKey) {
        return rows.tailMap(new RowId(partitionKey, rowKey), true).values();
    }

    @Override
    public String firstRowKey(String partitionKey) {
        RowId first = rows.ceilingKey(new RowId(partitionKey, ""));
        return first != null && first.partitionKey().equals(partitionKey) ? first.rowKey() : null;
    }

    @Override
    public void put(Row row) {
        rows.put(new RowId(row.partitionKey(), row.rowKey()), row);
    }

    @Override
    public void put(Row row, long timestamp) {
        RowId id = new RowId(row.partitionKey(), row.rowKey());
        timestamps.put(id, timestamp);
        rows.put(id, row);
    }

    @Override
    public Long timestamp(Row row) {
        return timestamps.get(new RowId(row.partitionKey(), row.rowKey()));
    }

    @Override
    public List<Row> all() {
        return List.copyOf(rows.values());
    }

    @Override
    public boolean remove(String partitionKey, String rowKey) {
        RowId id = new RowId(partitionKey, rowKey);
        timestamps.remove(id);
        return rows.remove(id) != null;
    }
}
