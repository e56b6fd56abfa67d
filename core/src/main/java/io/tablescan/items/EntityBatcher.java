package io.tablescan.items;

import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.Property;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.Rows;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts rows (in key order) into entity batches that one table transaction can write: one PartitionKey, at
 * most 100 rows, and an estimated request payload under 3.5 MiB (the service allows 4 MiB).
 */
public final class EntityBatcher {
    public static final int MAX_ROWS = 100;
    public static final long MAX_PAYLOAD_BYTES = 3_500_000;

    private EntityBatcher() {}

    /** The scan's entity batches of these rows. */
    public static List<EntityBatch> batches(ScanSpec spec, List<Row> rows) {
        return batches(spec, rows, null);
    }

    /**
     * The scan's entity batches of these rows, each write conditional on the ETag of the destination row it replaces
     * ({@code etags}, in the rows' order; null: inserted), a mirror's; {@code etags} null: unconditional writes.
     */
    public static List<EntityBatch> batches(ScanSpec spec, List<Row> rows, List<String> etags) {
        List<EntityBatch> batches = new ArrayList<>();
        int at = 0;
        for (List<Row> batch : rowBatches(rows)) {
            batches.add(batch(spec, batch, etags == null ? List.of() : new ArrayList<>(etags.subList(at,
                    at + batch.size()))));
            at += batch.size();
        }
        return batches;
    }

    /** The rows, in their order, cut into batches that one table transaction each can write. */
    public static List<List<Row>> rowBatches(List<Row> rows) {
        List<List<Row>> batches = new ArrayList<>();
        List<Row> current = new ArrayList<>();
        long bytes = 0;
        for (Row row : rows) {
            long size = estimate(row);
            boolean full = current.size() == MAX_ROWS || bytes + size > MAX_PAYLOAD_BYTES;
            if (!current.isEmpty() && (!row.partitionKey().equals(current.get(0).partitionKey()) || full)) {
                batches.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(row);
            bytes += size;
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    private static EntityBatch batch(ScanSpec spec, List<Row> rows, List<String> etags) {
        String partition = rows.get(0).partitionKey();
        List<Entity> entities = new ArrayList<>(rows.size());
        for (Row row : rows) {
            entities.add(new Entity(row.rowKey(), Rows.toWire(row.properties()), row.timestamp()));
        }
        String firstRow = rows.get(0).rowKey();
        String lastRow = rows.get(rows.size() - 1).rowKey();
        return new EntityBatch(ItemIds.of(spec.getScanId(), "batch", partition, firstRow, lastRow), spec, partition,
                entities, List.of(), List.of(), etags);
    }

    /**
     * Batches that delete these rows (a mirror's of the destination, a delete job's of the source), at most
     * {@value #MAX_ROWS} of one partition each, each delete conditional on the ETag its row was read with.
     */
    public static List<EntityBatch> deletes(ScanSpec spec, List<Row> rows) {
        List<EntityBatch> batches = new ArrayList<>();
        List<String> rowKeys = new ArrayList<>();
        List<String> etags = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            rowKeys.add(row.rowKey());
            etags.add(row.etag());
            boolean last = i + 1 == rows.size() || !rows.get(i + 1).partitionKey().equals(row.partitionKey());
            if (last || rowKeys.size() == MAX_ROWS) {
                String pk = row.partitionKey();
                batches.add(new EntityBatch(ItemIds.of(spec.getScanId(), "delete", pk, rowKeys.get(0), row.rowKey()),
                        spec, pk, List.of(), List.copyOf(rowKeys), new ArrayList<>(etags), List.of()));
                rowKeys.clear();
                etags.clear();
            }
        }
        return batches;
    }

    /**
     * A generous estimate of a row's share of a batch request (UTF-8, escapes, base64, annotations). Keys are
     * sent twice: percent-encoded in the operation's URL (up to 9 bytes a UTF-16 unit) and in the JSON body.
     */
    static long estimate(Row row) {
        long bytes = keysEstimate(row.partitionKey(), row.rowKey());
        for (RowProperty p : row.properties()) {
            bytes += propertyEstimate(p.name(), p.value());
        }
        return bytes;
    }

    /** The same estimate for a row as an entity record holds it (BINARY a ByteBuffer). */
    static long estimate(String partitionKey, Entity entity) {
        long bytes = keysEstimate(partitionKey, entity.getRowKey());
        for (Property p : entity.getProperties()) {
            bytes += propertyEstimate(p.getName(), p.getValue());
        }
        return bytes;
    }

    static long keysEstimate(String partitionKey, String rowKey) {
        return 200 + 12L * (partitionKey.length() + rowKey.length());
    }

    private static long propertyEstimate(String name, Object v) {
        long bytes = 3L * name.length() + 60;
        if (v instanceof CharSequence s) {
            bytes += 6L * s.length();
        } else if (v instanceof byte[] b) {
            bytes += 4L * b.length / 3 + 4;
        } else if (v instanceof java.nio.ByteBuffer b) {
            bytes += 4L * b.remaining() / 3 + 4;
        } else {
            bytes += 32;
        }
        return bytes;
    }
}
