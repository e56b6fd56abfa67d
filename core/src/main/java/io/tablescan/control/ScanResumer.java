package io.tablescan.control;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Tells the ledger that a stopped local job runs again, so the scan's duration and rates count the time it ran, not
 * the time it waited for its rerun (see ScanFold).
 */
public final class ScanResumer {
    private ScanResumer() {}

    public static void resumed(KafkaSettings kafka, String scanId) {
        byte[] key = scanId.getBytes(StandardCharsets.UTF_8);
        String events = kafka.namespace().scanEvents();
        ScanEvent event = new ScanEventBuilder(scanId).resumed().build();
        try (Producer<byte[], byte[]> producer =
                kafka.newProducer(kafka.namespace().group("resume-" + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(events, key, kafka.valueSerializer().serialize(events, event)));
            producer.commitTransaction();
            producer.close(Duration.ofSeconds(10));
        }
    }
}
