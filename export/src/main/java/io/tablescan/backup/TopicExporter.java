package io.tablescan.backup;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import io.tablescan.spi.Row;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Stage 2 of an export: the rows the scan published exactly once into its private topic become data files. Each
 * partition is read read_committed from its start and cut into {@code part-<partition>-<n>-<run>.jsonl.gz} (or
 * {@code .parquet}, {@code .csv}, whose columns a first pass over the topic finds) at fixed row counts, so a rerun over the same topic writes the same files: a row is never in two files, and rows of
 * aborted transactions (a crashed worker's attempt) are never read at all. The run's id in each name keeps the
 * files of other runs onto the same target apart.
 */
public final class TopicExporter {
    /** How long a transaction left open by a killed worker may hold a partition (the producers' timeout is 60 s). */
    private static final Duration OPEN_TRANSACTIONS_WITHIN = Duration.ofMinutes(3);

    /** Partitions read and cut at once: gzip takes a core each; each holds a write buffer, not a file. */
    private static final int READERS = 2;

    private final KafkaSettings kafka;
    private final String topic;

    public TopicExporter(KafkaSettings kafka, String topic) {
        this.kafka = kafka;
        this.topic = topic;
    }

    /**
     * Writes every partition's files to {@code store}, {@value #READERS} partitions at once, each file streamed;
     * returns their entries, in partition then file order.
     */
    public List<Manifest.DataFile> export(BackupStore store, String runId, java.util.function.LongConsumer progress) {
        return export(store, runId, progress, FileFormat.JSONL, null);
    }

    /** As above, in {@code format} with the columns {@code schema} (null for JSON lines). */
    public List<Manifest.DataFile> export(BackupStore store, String runId, java.util.function.LongConsumer progress,
            FileFormat format, TableSchema schema) {
        AtomicLong rows = new AtomicLong();
        List<Manifest.DataFile> files = new ArrayList<>();
        try (Admin admin = kafka.newAdmin()) {
            eachPartition(partition -> export(admin, partition, store, runId,
                    () -> progress.accept(rows.incrementAndGet()), format, schema)).forEach(files::addAll);
        }
        return files;
    }

    /**
     * The columns of the rows the topic holds, for files in {@code format} of scan {@code scanId}'s export: every
     * partition read once more before a file is written, since a Parquet or CSV file's columns come first. The
     * topic no longer changes, so each reader of it (every copy-worker of a cluster) finds the same columns.
     */
    public TableSchema schema(String scanId, FileFormat format) {
        PropertyCatalog catalog = new PropertyCatalog();
        fold(PropertyCatalog::new, PropertyCatalog::add, catalog::merge);
        return TableSchema.of(catalog, scanId, format);
    }

    /**
     * What the rows the topic holds are, as {@code profile} reports it: each partition read once, two at once (a
     * PartitionKey's rows are all in one topic partition, so each partition's profile holds partitions of its own).
     */
    public TableProfile profile() {
        TableProfile profile = new TableProfile();
        fold(TableProfile::new, TableProfile::add, profile::merge);
        return profile;
    }

    /**
     * Reads every row of each partition into a {@code part} of its own, {@value #READERS} partitions at once, and
     * hands each part to {@code merge} as its partition ends (one at a time), so that at most {@value #READERS}
     * parts are held besides what they were merged into.
     */
    private <T> void fold(Supplier<T> part, BiConsumer<T, Row> add, java.util.function.Consumer<T> merge) {
        Object lock = new Object();
        try (Admin admin = kafka.newAdmin()) {
            eachPartition(partition -> {
                T mine = part.get();
                read(admin, partition, value -> add.accept(mine, io.tablescan.azure.RowJson.parse(value)));
                synchronized (lock) {
                    merge.accept(mine);
                }
                return null;
            });
        }
    }

    /** {@code task} for each partition, {@value #READERS} at once; the results in partition order. */
    private <T> List<T> eachPartition(java.util.function.Function<TopicPartition, T> task) {
        List<T> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(READERS)) {
            List<Future<T>> parts = new ArrayList<>();
            for (TopicPartition partition : partitions()) {
                parts.add(pool.submit(() -> task.apply(partition)));
            }
            for (Future<T> part : parts) {
                try {
                    results.add(part.get());
                } catch (ExecutionException e) {
                    pool.shutdownNow();
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    pool.shutdownNow();
                    Thread.currentThread().interrupt();
                    throw new BackupException(BackupException.Kind.FAILED, "interrupted");
                }
            }
        }
        return results;
    }

    /** The topic's partitions, in order. */
    private List<TopicPartition> partitions() {
        List<TopicPartition> partitions;
        try (Consumer<byte[], byte[]> reader = kafka.newReader()) {
            partitions = new ArrayList<>(Topics.partitions(reader, topic));
        }
        partitions.sort(Comparator.comparingInt(TopicPartition::partition));
        return partitions;
    }

    /** The topic's partition count: it decides which partition, and so which files, a PartitionKey's rows go to. */
    public int partitionCount() {
        return partitions().size();
    }

    /** Each committed row (its JSON) of one partition, in offset order, from its start to its committed end. */
    public void read(int partition, java.util.function.Consumer<byte[]> each) {
        try (Admin admin = kafka.newAdmin()) {
            read(admin, new TopicPartition(topic, partition), each);
        }
    }

    private void read(Admin admin, TopicPartition partition, java.util.function.Consumer<byte[]> each) {
        Consumer<byte[], byte[]> reader = kafka.newReader();
        try {
            long end = committedEnd(admin, partition);
            reader.assign(List.of(partition));
            reader.seekToBeginning(List.of(partition));
            Topics.readToEnd(reader, Map.of(partition, end), record -> each.accept(record.value()));
        } finally {
            reader.close(Duration.ZERO); // no group to leave, nothing to commit: no wait for the fetch in flight
        }
    }

    /**
     * One partition's files, read from its start to its committed end, each streamed to {@code store}: a rerun over
     * the same topic writes the same files, byte for byte, under the same names.
     */
    public List<Manifest.DataFile> exportPartition(int partition, BackupStore store, String runId, Runnable each,
            FileFormat format, TableSchema schema) {
        try (Admin admin = kafka.newAdmin()) {
            return export(admin, new TopicPartition(topic, partition), store, runId, each, format, schema);
        }
    }

    private List<Manifest.DataFile> export(Admin admin, TopicPartition partition, BackupStore store, String runId,
            Runnable each, FileFormat format, TableSchema schema) {
        List<Manifest.DataFile> files = new ArrayList<>();
        PartFile[] file = {null};
        int[] sequence = {0};
        DataFileFormat writer = format.writer(schema);
        try {
            read(admin, partition, value -> {
                if (file[0] == null) {
                    file[0] = new PartFile(PartFile.name(partition.partition(), sequence[0]++, runId, format), store,
                            writer);
                }
                file[0].add(value);
                if (file[0].full()) {
                    files.add(file[0].finish().entry());
                    file[0] = null;
                }
                each.run();
            });
        } catch (RuntimeException e) {
            if (file[0] != null) {
                file[0].abort(); // no open file left behind by an attempt that failed: the next writes it anew
            }
            throw e;
        }
        if (file[0] != null) {
            files.add(file[0].finish().entry());
        }
        return files;
    }

    /**
     * The partition's end once no transaction is open in it: a read_committed reader stops at the first open one,
     * and a killed worker's transaction stays open until its timeout or its successor fences it.
     */
    private long committedEnd(Admin admin, TopicPartition partition) {
        long deadline = System.nanoTime() + OPEN_TRANSACTIONS_WITHIN.toNanos();
        while (true) {
            long committed = latest(admin, partition, IsolationLevel.READ_COMMITTED);
            long written = latest(admin, partition, IsolationLevel.READ_UNCOMMITTED);
            if (committed == written) {
                return committed;
            }
            if (System.nanoTime() > deadline) {
                throw new BackupException(BackupException.Kind.FAILED, "a transaction in the export's topic stayed "
                        + "open for " + OPEN_TRANSACTIONS_WITHIN.toMinutes() + " minutes (partition "
                        + partition.partition() + ")");
            }
            try {
                Thread.sleep(200); // polling the broker for a condition with a deadline, not synchronisation by time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackupException(BackupException.Kind.FAILED, "interrupted");
            }
        }
    }

    private static long latest(Admin admin, TopicPartition partition, IsolationLevel isolation) {
        try {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                    .partitionResult(partition).get().offset();
        } catch (ExecutionException e) {
            throw new BackupException(BackupException.Kind.UNREACHABLE, "cannot read the export topic's offsets: "
                    + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupException(BackupException.Kind.FAILED, "interrupted");
        }
    }
}
