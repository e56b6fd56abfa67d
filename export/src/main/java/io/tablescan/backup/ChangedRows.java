package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.rate.TokenBucket;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * An incremental set's changes of one table, found in its keys export (read with each row's Timestamp): every row
 * whose Timestamp is at or after {@code since} is read again by its keys (a point read) and written as an export of
 * its own, in the format of {@code export} (each PartitionKey in the {@code part-<p>} files of the topic partition the
 * keys export's topic gave it; the manifest last), so that restore and {@code verify --from-set} read it as any
 * export. A row gone by its point read is left out (the next set's keys lack it).
 */
public final class ChangedRows {
    /**
     * Point reads in flight at once: a table's changed rows are read after its keys scan, on the set's critical
     * path when the table is its biggest (at 100 ms a read, 640 rows/s; 16 in flight made an incremental set of an
     * account's size slower than a full one). A point read is one entity of the account's targets, and the set's
     * read cap paces them as the scans.
     */
    private static final int IN_FLIGHT = 64;
    /** Rows read and written at a time: what memory holds of the rows. */
    private static final int CHUNK = 1_000;

    /** A changed row's keys. */
    public record Key(String partitionKey, String rowKey) {}

    private ChangedRows() {}

    /**
     * The keys of the rows of the keys export {@code keys} (every file checked) with a Timestamp at or after
     * {@code sinceTicks} (100 ns ticks since the epoch) or none, by topic partition then key; null when there are
     * more than {@code max} (memory holds at most that many keys).
     */
    public static Map<Integer, List<Key>> find(BackupStore keys, Manifest manifest, long sinceTicks, long max) {
        ConcurrentLinkedQueue<Row> changed = new ConcurrentLinkedQueue<>();
        AtomicLong count = new AtomicLong();
        new Importer(keys, 4).checkAll(manifest, row -> {
            if ((row.timestamp() == null || row.timestamp() >= sinceTicks) && count.incrementAndGet() <= max) {
                changed.add(row);
            }
        });
        if (count.get() > max) {
            return null;
        }
        int partitions = manifest.partitionCount();
        Map<Integer, List<Key>> byPartition = new TreeMap<>();
        for (Row row : changed) {
            byPartition.computeIfAbsent(ExportComparer.partitionOf(row, partitions), p -> new ArrayList<>())
                    .add(new Key(row.partitionKey(), row.rowKey()));
        }
        Comparator<Key> order = Comparator.comparing(Key::partitionKey).thenComparing(Key::rowKey);
        byPartition.values().forEach(list -> list.sort(order));
        return byPartition;
    }

    /**
     * Reads the rows of {@code changed} ({@link #find}) from {@code table} of {@code source} (its reads retried by the
     * caller's store; at most {@code maxRate} rows/s, 0: no cap; until {@code stop} says so) and writes them to {@code target} as the export of
     * run {@code runId}; {@code keysManifest} is the keys export's, whose scan found them, {@code filter} what they
     * are (the Timestamp filter of the changes).
     */
    public static Manifest export(TableStore source, String table, Map<Integer, List<Key>> changed,
            Manifest keysManifest, String filter, long maxRate, BooleanSupplier stop, BackupStore target, String runId,
            String accountName) {
        Instant start = Instant.now();
        target.prepare();
        TokenBucket cap = new TokenBucket(maxRate);
        List<Manifest.DataFile> files = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(IN_FLIGHT, Thread.ofVirtual().factory())) {
            for (Map.Entry<Integer, List<Key>> partition : changed.entrySet()) {
                PartFile file = null;
                int sequence = 0;
                List<Key> keys = partition.getValue();
                for (int from = 0; from < keys.size(); from += CHUNK) {
                    if (stop.getAsBoolean()) {
                        throw new BackupException(BackupException.Kind.FAILED, table + ": interrupted");
                    }
                    for (Row row : read(pool, source, table, keys.subList(from, Math.min(keys.size(), from + CHUNK)),
                            cap)) {
                        if (file == null) {
                            file = new PartFile(PartFile.name(partition.getKey(), sequence++, runId), target);
                        }
                        file.add(RowJson.toJson(row));
                        if (file.full()) {
                            files.add(file.finish().entry());
                            file = null;
                        }
                    }
                }
                if (file != null) {
                    files.add(file.finish().entry());
                }
            }
        }
        long rows = files.stream().mapToLong(Manifest.DataFile::rows).sum();
        Manifest manifest = new Manifest(Manifest.FORMAT_VERSION, accountName, table, keysManifest.scanId(),
                start.toString(), Instant.now().toString(), filter, null, null, null, rows, files,
                keysManifest.partitionCount(), null);
        if (!target.create(Manifest.NAME, manifest.toJson())) {
            files.forEach(file -> target.delete(file.name()));
            throw new BackupException(BackupException.Kind.IN_USE, target.describe() + " received another export's "
                    + Manifest.NAME + " while this one ran: this export's files were removed");
        }
        return manifest;
    }

    /** The rows still there of {@code keys}, in their order, {@value #IN_FLIGHT} point reads at a time. */
    private static List<Row> read(ExecutorService pool, TableStore source, String table, List<Key> keys,
            TokenBucket cap) {
        List<Future<Row>> reads = new ArrayList<>(keys.size());
        for (Key key : keys) {
            reads.add(pool.submit(() -> {
                cap.acquire(1);
                return source.read(table, key.partitionKey(), key.rowKey());
            }));
        }
        List<Row> rows = new ArrayList<>(keys.size());
        try {
            for (Future<Row> read : reads) {
                Row row = read.get();
                if (row != null) {
                    rows.add(row);
                }
            }
        } catch (ExecutionException e) {
            reads.forEach(read -> read.cancel(true));
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            reads.forEach(read -> read.cancel(true));
            Thread.currentThread().interrupt();
            throw new BackupException(BackupException.Kind.FAILED, table + ": interrupted");
        }
        return rows;
    }
}
