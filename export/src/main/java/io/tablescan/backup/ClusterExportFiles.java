package io.tablescan.backup;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanEvent;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import io.tablescan.status.ScanTotals;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 2 of an export on a cluster, as its copy-workers run it once the scan completed. Each topic partition's
 * files are written by whichever worker holds the partition, then an index of them ({@code part-<p>-<run>.index.json});
 * whoever writes the last index sees every index (each writes its own before it looks) and writes the manifest. The
 * topic no longer changes, so any rerun (a killed worker's partition taken over, two writers at once) writes the same
 * bytes under the same names, and the manifest's content is a function of the indexes and the scan's status: it is
 * created once, and a second writer finds it there. Then the indexes, the export's claim and its topic go.
 */
public final class ClusterExportFiles {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterExportFiles.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterExportFiles() {}

    /** Written instead of a manifest when the scan failed or the files do not hold exactly the rows it read. */
    public static String failedName(String runId) {
        return "export-failed-" + runId + ".json";
    }

    public static String indexName(int partition, String runId) {
        return String.format("part-%05d-%s.index.json", partition, runId);
    }

    /** The topic of an export on a cluster: {@code <namespace>.export-<scan id>}. */
    public static String topic(KafkaSettings kafka, String scanId) {
        return kafka.namespace().topic("export-" + scanId);
    }

    /** Writes the files of {@code partition} and their index, unless the export ended or that index is there. */
    public static void writePartition(KafkaSettings kafka, ScanTotals totals, ExportTarget target, BackupStore store,
            int partition, int partitions) {
        String topic = topic(kafka, totals.scanId());
        if (ended(store, target.runId())) {
            cleanUp(kafka, topic, totals, target, store, partitions);
            return;
        }
        String index = indexName(partition, target.runId());
        if (!store.exists(index)) {
            long started = System.nanoTime();
            TopicExporter exporter = new TopicExporter(kafka, topic);
            FileFormat format = target.fileFormat();
            List<Manifest.DataFile> files = exporter.exportPartition(partition, store, target.runId(), () -> {},
                    format, format.needsSchema() ? schema(exporter, totals, store, format) : null);
            try {
                store.write(index, JSON.writeValueAsBytes(files));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            LOG.info("export {}: partition {} in {} files, {} rows, {} ms", totals.scanId(), partition, files.size(),
                    files.stream().mapToLong(Manifest.DataFile::rows).sum(), (System.nanoTime() - started) / 1_000_000);
        }
        tryFinish(kafka, totals, target, store, partitions);
    }

    /**
     * The export's columns: {@code schema.json} if a worker wrote this scan's already, else found from the topic and
     * written (every worker finds the same columns in the same topic, so two at once write the same bytes).
     */
    private static TableSchema schema(TopicExporter exporter, ScanTotals totals, BackupStore store, FileFormat format) {
        if (store.exists(TableSchema.NAME)) {
            try {
                TableSchema written = TableSchema.parse(store.read(TableSchema.NAME));
                if (totals.scanId().equals(written.scanId()) && written.rows() == totals.rowsRead()
                        && FileFormat.of(written.format()) == format) {
                    return written;
                }
            } catch (BackupException e) {
                // another export's, or one being written: this worker finds the columns itself
            }
        }
        TableSchema schema = exporter.schema(totals.scanId(), format);
        store.write(TableSchema.NAME, schema.toJson());
        return schema;
    }

    /**
     * Writes the manifest if every partition's index is there (or the export failed if their rows are not the scan's),
     * then removes what the export no longer needs; true if the export has ended.
     */
    public static boolean tryFinish(KafkaSettings kafka, ScanTotals totals, ExportTarget target, BackupStore store,
            int partitions) {
        String topic = topic(kafka, totals.scanId());
        List<Manifest.DataFile> files = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (!store.exists(indexName(p, target.runId()))) {
                return ended(store, target.runId());
            }
        }
        try {
            for (int p = 0; p < partitions; p++) {
                files.addAll(JSON.readValue(store.read(indexName(p, target.runId())),
                        new TypeReference<List<Manifest.DataFile>>() {}));
            }
        } catch (BackupException | IOException e) {
            if (ended(store, target.runId())) { // another worker finished and removed the indexes meanwhile
                return true;
            }
            throw new BackupException(BackupException.Kind.FAILED, "cannot read an index of export " + totals.scanId()
                    + " (" + e.getMessage() + ")");
        }
        long rows = files.stream().mapToLong(Manifest.DataFile::rows).sum();
        if (rows != totals.rowsRead()) { // never a manifest over rows lost or doubled on the way
            fail(store, target, totals, "the export's topic holds " + rows + " rows, the scan read " + totals.rowsRead());
        } else {
            if (!target.fileFormat().needsSchema()) {
                ExportFiles.removeStaleSchema(store);
            }
            Manifest manifest = ExportFiles.manifest(totals, target.sourceAccount(), files, partitions,
                    Instant.ofEpochMilli(totals.status().getEndMillis() != null ? totals.status().getEndMillis()
                            : totals.status().getLastEventMillis()), target.fileFormat());
            if (store.create(Manifest.NAME, manifest.toJson())) {
                LOG.info("export {}: manifest written, {} rows in {} files, to {}", totals.scanId(), rows, files.size(),
                        store.describe());
            } else if (!Manifest.parse(store.read(Manifest.NAME)).scanId().equals(totals.scanId())) {
                LOG.error("export {}: {} holds another export's manifest; this export's files are left unlisted",
                        totals.scanId(), store.describe());
            }
        }
        cleanUp(kafka, topic, totals, target, store, partitions);
        return true;
    }

    /** A scan that failed or was cancelled: no files; its topic and claim go, and the client reads why. */
    public static void abandon(KafkaSettings kafka, ScanTotals totals, ExportTarget target, BackupStore store,
            int partitions) {
        if (!ended(store, target.runId())) {
            fail(store, target, totals, "the scan ended " + totals.state().name().toLowerCase(java.util.Locale.ROOT)
                    + ", so no files were written");
        }
        cleanUp(kafka, topic(kafka, totals.scanId()), totals, target, store, partitions);
    }

    /** The scan's recorded errors begin so when its copy-workers gave its files up. */
    public static final String GIVEN_UP = "export files failed: ";

    /**
     * The copy-workers cannot write the export's files (its target cannot be opened or written, past a few
     * attempts): the scan's ledger records why (an error on the ended scan, its counts and times unchanged), which its
     * client and status read, and the topic goes. The claim stays for the client, which can reach the target, to
     * remove.
     */
    public static void giveUp(KafkaSettings kafka, ScanTotals totals, String reason) {
        LOG.error("export {}: {}", totals.scanId(), reason);
        ScanEvent event = new ScanEventBuilder(totals.scanId()).build();
        event.setFirstError(GIVEN_UP + reason);
        event.setTimeMillis(totals.status().getLastEventMillis());
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        String events = kafka.namespace().scanEvents();
        try (Producer<byte[], byte[]> producer = kafka.newProducer(kafka.namespace().group("export-files-"
                + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(events, totals.scanId().getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(events, event)));
            producer.commitTransaction();
        } catch (RuntimeException e) {
            LOG.error("export {}: could not record that its files failed ({})", totals.scanId(), e.toString());
        }
        deleteTopic(kafka, topic(kafka, totals.scanId()), totals);
    }

    /** Why the copy-workers gave the export's files up, as the scan's ledger recorded it; null if they did not. */
    public static String givenUp(ScanTotals totals) {
        return totals.status() == null ? null : totals.status().getErrors().stream().filter(e -> e.startsWith(GIVEN_UP))
                .map(e -> e.substring(GIVEN_UP.length())).findFirst().orElse(null);
    }

    /** Whether the export has its manifest or its failure. */
    public static boolean ended(BackupStore store, String runId) {
        return store.exists(Manifest.NAME) || store.exists(failedName(runId));
    }

    /** Why the export failed, as the cluster wrote it; null if it did not. */
    public static String failure(BackupStore store, String runId) {
        try {
            return JSON.readTree(store.read(failedName(runId))).path("reason").asText(null);
        } catch (BackupException | IOException e) {
            return null;
        }
    }

    private static void fail(BackupStore store, ExportTarget target, ScanTotals totals, String reason) {
        try {
            store.create(failedName(target.runId()), JSON.writeValueAsBytes(Map.of("scanId", totals.scanId(), "reason", reason)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        // a cancel is asked for: no error of the worker's; a failed scan's own errors were logged where they happened
        LOG.warn("export {}: {}", totals.scanId(), reason);
    }

    private static void cleanUp(KafkaSettings kafka, String topic, ScanTotals totals, ExportTarget target,
            BackupStore store, int partitions) {
        for (int p = 0; p < partitions; p++) {
            store.delete(indexName(p, target.runId()));
        }
        ExportClaim.release(store, target.runId());
        deleteTopic(kafka, topic, totals);
    }

    private static void deleteTopic(KafkaSettings kafka, String topic, ScanTotals totals) {
        try (Admin admin = kafka.newAdmin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                LOG.warn("export {}: could not delete its topic {} ({})", totals.scanId(), topic, e.getCause().toString());
            }
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.warn("export {}: could not delete its topic {} in 30 s", totals.scanId(), topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
