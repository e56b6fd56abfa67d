package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.spi.Row;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Cuts one file's rows, as they stream by, into batches of one PartitionKey that one table transaction can
 * write: at most 100 rows, 3.5 MB, each row once. A partition's rows are mostly together in a file (the export
 * keys them by PartitionKey), so batches come out full; at most {@value #MAX_OPEN_ROWS} rows wait in open
 * batches, which bounds the memory. The same rows give the same batches: an import counts them in its check
 * pass and sends them in the next.
 */
final class FileBatches {
    static final int MAX_BATCH_ROWS = 100;
    static final long MAX_BATCH_BYTES = 3_500_000;
    private static final int MAX_OPEN_ROWS = 5_000;

    private final Consumer<List<Row>> out;
    private final Map<String, Batch> open = new LinkedHashMap<>();
    private int openRows;

    FileBatches(Consumer<List<Row>> out) {
        this.out = out;
    }

    void add(Row row) {
        Batch batch = open.computeIfAbsent(row.partitionKey(), pk -> new Batch());
        int size = RowJson.toJson(row).length;
        if (batch.rows.size() == MAX_BATCH_ROWS || batch.bytes + size > MAX_BATCH_BYTES
                || batch.rowKeys.contains(row.rowKey())) { // a row twice in one batch is refused by the service
            openRows -= batch.rows.size();
            flush(batch);
        }
        batch.add(row, size);
        if (++openRows > MAX_OPEN_ROWS) {
            finish();
        }
    }

    /** Hands out every open batch: at the end of the file. */
    void finish() {
        open.values().forEach(this::flush);
        open.clear();
        openRows = 0;
    }

    private void flush(Batch batch) {
        if (!batch.rows.isEmpty()) {
            out.accept(List.copyOf(batch.rows));
            batch.clear();
        }
    }

    private static final class Batch {
        final List<Row> rows = new ArrayList<>();
        final Set<String> rowKeys = new HashSet<>();
        long bytes;

        void add(Row row, int size) {
            rows.add(row);
            rowKeys.add(row.rowKey());
            bytes += size;
        }

        void clear() {
            rows.clear();
            rowKeys.clear();
            bytes = 0;
        }
    }
}
