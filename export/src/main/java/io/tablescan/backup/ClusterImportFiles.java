package io.tablescan.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An import on a cluster's workers: the command, once it has checked every file, publishes in one Kafka
 * transaction the scan's first event (counting every batch the files make, as {@link ImportSeeder} does) and one
 * record per data file to {@code <namespace>.import-<scan>}; copy-workers take the file records
 * ({@link ImportFileWorker}) and send each file's batches in a transaction with the record's offset, so a file's
 * batches are sent exactly once however often a worker dies. The records name the export by folder or account
 * alias: no connection string or SAS token goes through Kafka.
 */
public final class ClusterImportFiles {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterImportFiles() {}

    /** One data file to send, and where the export is. */
    public record FileItem(String scanId, Manifest.DataFile file, String folder, String container, String prefix,
            String account) {
        BackupStore open(Function<String, String> env) {
            return ExportTarget.open(folder, container, prefix, account, env);
        }

        byte[] toJson() {
            try {
                return JSON.writeValueAsBytes(this);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        static Optional<FileItem> parse(byte[] json) {
            try {
                FileItem item = JSON.readValue(json, FileItem.class);
                return item.scanId() == null || item.file() == null ? Optional.empty() : Optional.of(item);
            } catch (IOException e) {
                return Optional.empty();
            }
        }
    }

    /** The topic of an import on a cluster: {@code <namespace>.import-<scan id>}. */
    public static String topic(KafkaSettings kafka, String scanId) {
        return kafka.namespace().topic("import-" + scanId);
    }

    /**
     * Starts the import: its topic, then the first event and every file's record in one transaction.
     * {@code folder} or {@code container} (with {@code account}) name the export, as the workers open it.
     */
    public static void seed(KafkaSettings kafka, ScanSpec spec, Manifest manifest, long batches, long rows,
            String folder, String container, String prefix, String account) {
        String topic = topic(kafka, spec.getScanId());
        try (Admin admin = kafka.newAdmin()) {
            int partitions = Math.max(1, Math.min(manifest.files().size(), Topics.DEFAULT_PARTITIONS));
            Topics.ensure(admin, List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())),
                    Duration.ofSeconds(60));
        }
        try (Producer<byte[], byte[]> producer = kafka.newProducer(kafka.namespace().group("import-" + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            ImportSeeder.sendStart(producer, kafka, spec, batches, rows);
            for (Manifest.DataFile file : manifest.files()) {
                FileItem item = new FileItem(spec.getScanId(), file, folder, container, prefix, account);
                producer.send(new ProducerRecord<>(topic, file.name().getBytes(StandardCharsets.UTF_8), item.toJson()));
            }
            producer.commitTransaction();
            producer.close(Duration.ofSeconds(10));
        }
    }

    /** Sends one file's batches with {@code producer} (in its open transaction); returns how many. */
    static long send(Producer<byte[], byte[]> producer, KafkaSettings kafka, ScanSpec spec, BackupStore store,
            Manifest.DataFile file) {
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        String topic = kafka.namespace().entityBatches();
        long[] sent = {0};
        FileBatches batcher = new FileBatches(batch -> {
            EntityBatch record = ImportSeeder.batch(spec, batch);
            producer.send(new ProducerRecord<>(topic, ItemKind.key(record), serializer.serialize(topic, record)));
            sent[0]++;
        });
        // checked against the manifest's SHA-256 again: the command checked these bytes before the first write
        DataFileReader.check(file, DataFileReader.read(store, file), batcher::add);
        batcher.finish();
        return sent[0];
    }
}
