package io.tablescan.backup;

import io.tablescan.items.ItemIds;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.Rows;
import io.tablescan.spi.Row;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Seeds an import as a scan the workers run: every checked file's rows become entity batches on the
 * entity-batches topic, which the copy-worker writes to the scan's destination table with upsert-replace, as it
 * writes a copy's. The first transaction also holds the scan's first event, which counts every batch the files
 * make (the check pass counted them) as emitted: the ledger cannot call the import complete before the last
 * batch is written, and its counts are exact. One transaction per file.
 */
public final class ImportSeeder {
    private ImportSeeder() {}

    /** Publishes the batches; {@code batches} and {@code rows}: the check pass's counts. */
    public static void seed(KafkaSettings kafka, ScanSpec spec, BackupStore store, Manifest manifest, long batches,
            long rows) {
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        String topic = kafka.namespace().entityBatches();
        long[] sent = {0};
        try (Producer<byte[], byte[]> producer = kafka.newProducer(kafka.namespace().group("import-" + UUID.randomUUID()))) {
            producer.initTransactions();
            boolean first = true;
            for (Manifest.DataFile file : manifest.files()) {
                producer.beginTransaction();
                if (first) {
                    sendStart(producer, kafka, spec, batches, rows);
                    first = false;
                }
                FileBatches batcher = new FileBatches(batch -> {
                    EntityBatch record = batch(spec, batch);
                    producer.send(new ProducerRecord<>(topic, ItemKind.key(record), serializer.serialize(topic, record)));
                    sent[0]++;
                });
                // The bytes are checked against the manifest's SHA-256 again: those the check pass read line by line.
                DataFileReader.check(file, DataFileReader.read(store, file), batcher::add);
                batcher.finish();
                producer.commitTransaction();
            }
            producer.close(Duration.ofSeconds(10));
        }
        if (sent[0] != batches) { // the same bytes cut the same way: cannot differ unless a file changed under us
            throw new BackupException(BackupException.Kind.FAILED, "the files made " + sent[0] + " batches, "
                    + batches + " when checked: the import will not complete");
        }
    }

    /** The import's first event: it counts every batch the files make as emitted, and the rows read from them. */
    static void sendStart(Producer<byte[], byte[]> producer, KafkaSettings kafka, ScanSpec spec, long batches,
            long rows) {
        String events = kafka.namespace().scanEvents();
        ScanEventBuilder event = new ScanEventBuilder(spec.getScanId()).started(spec);
        for (long i = 0; i < batches; i++) {
            event.emitted(ItemKind.ENTITY_BATCH);
        }
        ScanEvent started = event.build();
        started.setRowsRead(rows);
        producer.send(new ProducerRecord<>(events, spec.getScanId().getBytes(StandardCharsets.UTF_8),
                kafka.valueSerializer().serialize(events, started)));
    }

    static EntityBatch batch(ScanSpec spec, List<Row> rows) {
        String partition = rows.getFirst().partitionKey();
        List<Entity> entities = new ArrayList<>(rows.size());
        for (Row row : rows) {
            entities.add(new Entity(row.rowKey(), Rows.toWire(row.properties()), null)); // Timestamp: the service's
        }
        return new EntityBatch(ItemIds.of(spec.getScanId(), "batch", partition, rows.getFirst().rowKey(),
                rows.getLast().rowKey()), spec, partition, entities, List.of(), List.of(), List.of()); // rows, no deletes
    }
}
