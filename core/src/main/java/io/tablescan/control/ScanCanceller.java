package io.tablescan.control;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanControl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Cancels a scan: tells the workers (scan-control) and the ledger (scan-events) in one transaction. Workers
 * then skip the scan's remaining items, counted as skipped, so the ledger's counts still balance.
 */
public final class ScanCanceller {
    private ScanCanceller() {}

    public static void cancel(KafkaSettings kafka, String scanId) {
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        byte[] key = scanId.getBytes(StandardCharsets.UTF_8);
        try (Producer<byte[], byte[]> producer =
                kafka.newProducer(kafka.namespace().group("cancel-" + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            var control = new ScanControl(scanId, true, System.currentTimeMillis(), false, null, null);
            String controls = kafka.namespace().scanControl();
            String events = kafka.namespace().scanEvents();
            producer.send(new ProducerRecord<>(controls, key, serializer.serialize(controls, control)));
            var event = new ScanEventBuilder(scanId).cancelled().build();
            producer.send(new ProducerRecord<>(events, key, serializer.serialize(events, event)));
            producer.commitTransaction();
            producer.close(Duration.ofSeconds(10));
        }
    }
}
