package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.compare.RowMerge;
import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.PropertyDifference;
import io.tablescan.spi.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Utils;

/**
 * Compares an export's files with a fresh export of its source in a topic of the same partition count, one
 * partition at a time: a PartitionKey's rows are in the same partition p on both sides (Kafka's murmur2 of the
 * same record key), so each side's p-th share is compared alone. The export's rows of partition p (files
 * {@code part-<p>-*}) are held in memory as their JSON, keyed by (PartitionKey, RowKey); the source's rows stream
 * past them. Memory is therefore one partition's share of the export, about its uncompressed size.
 */
public final class ExportComparer {
    /** What was compared and found. */
    public record Counts(long sourceRows, long exportRows, long missing, long different, long extra) {
        public long differences() {
            return missing + different + extra;
        }
    }

    private record Key(String partitionKey, String rowKey) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = partitionKey.compareTo(o.partitionKey);
            return c != 0 ? c : rowKey.compareTo(o.rowKey);
        }
    }

    /** The source's rows of one topic partition, as their JSON: {@link TopicExporter#read}. */
    @FunctionalInterface
    public interface PartitionReader {
        void read(int partition, Consumer<byte[]> each);
    }

    private final BackupStore store;
    private final Manifest manifest;
    /** The rows compared with the source's partition p, or null: this export's part-p files. */
    private final java.util.function.IntFunction<Map<Key, byte[]>> layers;

    /** {@code manifest}: read and checked, with every file (see {@link Importer#checkAll}). */
    public ExportComparer(BackupStore store, Manifest manifest) {
        this(store, manifest, null);
    }

    private ExportComparer(BackupStore store, Manifest manifest, java.util.function.IntFunction<Map<Key, byte[]>> layers) {
        this.store = store;
        this.manifest = manifest;
        this.layers = layers;
    }

    /**
     * A backup set's view of a table: {@code exports} (checked; the table's last full export first) applied in
     * order, a later row replacing an earlier one with its keys, then only the rows whose keys {@code keys} (an
     * export of every row's keys, or null) holds. Partitioned as the last export; an export cut into another
     * partition count is read whole for each partition.
     */
    public static ExportComparer layered(List<BackupStore> stores, List<Manifest> exports, BackupStore keyStore,
            Manifest keys) {
        Manifest last = exports.getLast();
        int partitions = Math.max(1, last.partitionCount());
        return new ExportComparer(stores.getLast(), last, p -> {
            Map<Key, byte[]> rows = new HashMap<>();
            for (int i = 0; i < exports.size(); i++) {
                new ExportComparer(stores.get(i), exports.get(i)).rowsOf(p, partitions, rows::put);
            }
            if (keyStore != null) {
                java.util.Set<Key> kept = new java.util.HashSet<>();
                new ExportComparer(keyStore, keys).rowsOf(p, partitions, (key, json) -> kept.add(key));
                rows.keySet().retainAll(kept);
            }
            return rows;
        });
    }

    /** This export's rows of topic partition p of {@code partitions}: its part-p files, or all when cut otherwise. */
    private void rowsOf(int p, int partitions, java.util.function.BiConsumer<Key, byte[]> each) {
        boolean same = manifest.partitionCount() == partitions;
        List<Manifest.DataFile> files = manifest.files().stream()
                .filter(file -> !same || PartFile.partitionOf(file.name()) == p).toList();
        Map<Key, byte[]> own = new HashMap<>();
        for (Manifest.DataFile file : files) {
            DataFileReader.check(file, DataFileReader.read(store, file), row -> {
                if (partitionOf(row, partitions) != p) {
                    if (same) {
                        throw new BackupException(BackupException.Kind.CORRUPT, file.name() + " holds a row whose "
                                + "PartitionKey is not of topic partition " + p + " of " + partitions);
                    }
                    return;
                }
                if (own.put(new Key(row.partitionKey(), row.rowKey()), RowJson.toJson(row)) != null) {
                    throw new BackupException(BackupException.Kind.CORRUPT, file.name() + " holds a row whose keys "
                            + "are already in the export");
                }
            });
        }
        own.forEach(each);
    }

    /** The partition count the source's topic needs so that its partition p holds the PartitionKeys of part-p. */
    public int topicPartitions() {
        return Math.max(1, manifest.partitionCount());
    }

    /** The topic partition Kafka's default partitioner gives a row keyed by PartitionKey, as the topic sink keys it. */
    static int partitionOf(Row row, int partitions) {
        return Utils.toPositive(Utils.murmur2(RowJson.partitionKeyJson(row))) % partitions;
    }

    /**
     * Compares every partition of {@code source} (the fresh export's topic) with the export's files, handing each
     * difference to {@code each}, per partition in order: missing and different as the source's rows come, then
     * the extra ones in key order. DIFFERENT's "destination" is the export's value.
     */
    public Counts compare(PartitionReader source, String scanId, Consumer<Difference> each) {
        int partitions = topicPartitions();
        Map<Integer, List<Manifest.DataFile>> files = new TreeMap<>();
        for (Manifest.DataFile file : manifest.files()) {
            int p = PartFile.partitionOf(file.name());
            if (p < 0 || p >= partitions) {
                throw new BackupException(BackupException.Kind.CORRUPT, file.name() + " is not a part-<p>-<n>.jsonl.gz "
                        + "file of one of the export's " + partitions + " topic partitions: cannot tell which rows "
                        + "it should hold");
            }
            files.computeIfAbsent(p, k -> new ArrayList<>()).add(file);
        }
        long[] counts = new long[5];
        for (int p = 0; p < partitions; p++) {
            Map<Key, byte[]> exported = layers != null ? layers.apply(p)
                    : load(p, partitions, files.getOrDefault(p, List.of()));
            counts[1] += exported.size();
            source.read(p, json -> {
                Row row = RowJson.parse(json);
                counts[0]++;
                byte[] theirs = exported.remove(new Key(row.partitionKey(), row.rowKey()));
                if (theirs == null) {
                    counts[2]++;
                    each.accept(difference(scanId, DifferenceKind.MISSING, row, List.of()));
                    return;
                }
                List<PropertyDifference> changed = RowMerge.compare(row.properties(),
                        RowJson.parse(theirs).properties());
                if (!changed.isEmpty()) {
                    counts[3]++;
                    each.accept(difference(scanId, DifferenceKind.DIFFERENT, row, changed));
                }
            });
            for (Key extra : new TreeMap<>(exported).keySet()) {
                counts[4]++;
                each.accept(Difference.newBuilder().setScanId(scanId).setKind(DifferenceKind.EXTRA)
                        .setPartitionKey(extra.partitionKey()).setRowKey(extra.rowKey()).setProperties(List.of())
                        .setDeleted(false).build());
            }
        }
        return new Counts(counts[0], counts[1], counts[2], counts[3], counts[4]);
    }

    /** The export's rows of partition {@code p}, checked again as they are read (the files may have changed). */
    private Map<Key, byte[]> load(int p, int partitions, List<Manifest.DataFile> files) {
        Map<Key, byte[]> rows = new HashMap<>();
        for (Manifest.DataFile file : files) {
            DataFileReader.check(file, DataFileReader.read(store, file), row -> {
                if (partitionOf(row, partitions) != p) {
                    throw new BackupException(BackupException.Kind.CORRUPT, file.name() + " holds a row whose "
                            + "PartitionKey is not of topic partition " + p + " of " + partitions
                            + (manifest.topicPartitions() == null ? ": this export's manifest predates "
                            + "topicPartitions and its partition count cannot be inferred from its file names; "
                            + "export the table again to verify it" : ""));
                }
                if (rows.put(new Key(row.partitionKey(), row.rowKey()), RowJson.toJson(row)) != null) {
                    throw new BackupException(BackupException.Kind.CORRUPT, file.name() + " holds a row whose keys "
                            + "are already in the export");
                }
            });
        }
        return rows;
    }

    private static Difference difference(String scanId, DifferenceKind kind, Row row, List<PropertyDifference> changed) {
        return Difference.newBuilder().setScanId(scanId).setKind(kind).setPartitionKey(row.partitionKey())
                .setRowKey(row.rowKey()).setProperties(changed).setDeleted(false).build();
    }
}
