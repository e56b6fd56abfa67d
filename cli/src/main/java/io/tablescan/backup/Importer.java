package io.tablescan.backup;

import io.tablescan.spi.Row;
import io.tablescan.table.TableStore;
import io.tablescan.table.TableStoreException;
import io.tablescan.azure.RowJson;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Restores an export into a table: checks every file against the manifest first (nothing is written if one file
 * is bad), then writes the files in parallel, each in batches of one partition (at most 100 rows, 3.5 MB) with
 * upsert-replace, so a rerun after a crash rewrites the same rows and the table converges to the export.
 */
public final class Importer {
    static final int MAX_BATCH_ROWS = 100;
    static final long MAX_BATCH_BYTES = 3_500_000;

    private final BackupStore store;
    private final TableStore dest;
    private final String table;
    private final int parallelism;
    private final AtomicLong rowsWritten = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong rowsChecked = new AtomicLong();

    public Importer(BackupStore store, TableStore dest, String table, int parallelism) {
        this.store = store;
        this.dest = dest;
        this.table = table;
        this.parallelism = parallelism;
    }

    /** The manifest, read and checked; a missing one means no finished export. */
    public Manifest manifest() {
        byte[] json;
        try {
            json = store.read(Manifest.NAME);
        } catch (BackupException e) {
            if (e.kind() == BackupException.Kind.NOT_FOUND) {
                throw new BackupException(BackupException.Kind.NOT_FOUND, "no " + Manifest.NAME + " in "
                        + store.describe() + ": not a finished export");
            }
            throw e;
        }
        return Manifest.parse(json);
    }

    /** Checks every file (size, SHA-256, every line, row count) without writing anything. */
    public void checkAll(Manifest manifest) {
        forEachFile(manifest, file -> DataFileReader.check(file, store.read(file.name()), row -> rowsChecked.incrementAndGet()));
    }

    /**
     * Writes every file's rows. Each file's bytes are checked against the manifest's size and SHA-256 again before
     * any of its rows is written: they are the bytes {@link #checkAll} checked line by line, so its rows stream
     * into batches without being held whole.
     */
    public void writeAll(Manifest manifest) {
        forEachFile(manifest, file -> {
            FileWriter writer = new FileWriter();
            DataFileReader.check(file, store.read(file.name()), writer::add);
            writer.flushAll();
        });
    }

    public long rowsWritten() {
        return rowsWritten.get();
    }

    public long rowsChecked() {
        return rowsChecked.get();
    }

    public long batches() {
        return batches.get();
    }

    /**
     * One file's rows into batches of one PartitionKey. A partition's rows are mostly together in a file, so
     * batches come out full; at most {@value #MAX_OPEN_ROWS} rows wait in open batches, which bounds the memory.
     */
    private final class FileWriter {
        private static final int MAX_OPEN_ROWS = 5_000;
        private final Map<String, Batch> open = new LinkedHashMap<>();
        private int openRows;

        void add(Row row) {
            Batch batch = open.computeIfAbsent(row.partitionKey(), pk -> new Batch());
            int size = RowJson.toJson(row).length;
            if (batch.rows.size() == MAX_BATCH_ROWS || batch.bytes + size > MAX_BATCH_BYTES
                    || batch.rowKeys.contains(row.rowKey())) { // a row twice in one batch is refused by the service
                openRows -= batch.rows.size();
                flush(row.partitionKey(), batch);
            }
            batch.add(row, size);
            if (++openRows > MAX_OPEN_ROWS) {
                flushAll();
            }
        }

        void flushAll() {
            open.forEach(Importer.this::flush);
            open.clear();
            openRows = 0;
        }
    }

    private void flush(String partitionKey, Batch batch) {
        if (batch.rows.isEmpty()) {
            return;
        }
        try {
            dest.upsert(table, partitionKey, List.copyOf(batch.rows));
        } catch (TableStoreException e) {
            throw new BackupException(e.status() == 401 || e.status() == 403 ? BackupException.Kind.DENIED
                    : e.status() == 0 ? BackupException.Kind.UNREACHABLE : BackupException.Kind.FAILED,
                    "cannot write to table " + table + ": " + e.getMessage());
        }
        rowsWritten.addAndGet(batch.rows.size());
        batches.incrementAndGet();
        batch.clear();
    }

    private void forEachFile(Manifest manifest, java.util.function.Consumer<Manifest.DataFile> work) {
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallelism))) {
            List<Future<?>> done = new ArrayList<>();
            for (Manifest.DataFile file : manifest.files()) {
                done.add(pool.submit(() -> work.accept(file)));
            }
            for (Future<?> future : done) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    pool.shutdownNow(); // the first failure ends the import; the others need not finish
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    pool.shutdownNow();
                    Thread.currentThread().interrupt();
                    throw new BackupException(BackupException.Kind.FAILED, "interrupted");
                }
            }
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
