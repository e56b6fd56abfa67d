package io.tablescan.control;

import io.tablescan.rate.Direction;
import io.tablescan.rate.ScanRates;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanControl;
import io.tablescan.schema.ScanSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Changes a running scan's caps: a throttle record on scan-control (keyed scanId + "/rate", so it never replaces
 * a cancel), which every process of the scan reads within a second or two.
 */
public final class Throttle {
    private Throttle() {}

    /** The scan's caps now, rows/s by direction key (0: none): the spec's, as throttle records changed them. */
    public static Map<String, Long> current(KafkaSettings kafka, ScanSpec spec) {
        Map<String, Long> caps = new TreeMap<>();
        for (Direction d : Direction.values()) {
            caps.put(d.key, ScanRates.cap(spec, d));
        }
        Deserializer<SpecificRecord> deserializer = kafka.valueDeserializer();
        try (Consumer<byte[], byte[]> consumer = kafka.newReader()) {
            List<TopicPartition> partitions = Topics.partitions(consumer, kafka.namespace().scanControl());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Topics.readToEnd(consumer, consumer.endOffsets(partitions), record -> {
                if (record.value() != null
                        && deserializer.deserialize(record.topic(), record.value()) instanceof ScanControl c
                        && c.getThrottle() && c.getScanId().equals(spec.getScanId())) {
                    if (c.getMaxRate() != null) {
                        caps.put(Direction.READ.key, c.getMaxRate());
                    }
                    if (c.getMaxWriteRate() != null) {
                        caps.put(Direction.WRITE.key, c.getMaxWriteRate());
                    }
                }
            });
        }
        return caps;
    }

    /** Sets the caps given (rows/s, 0: none); a null one stays as it is. */
    public static void set(KafkaSettings kafka, String scanId, Long maxRate, Long maxWriteRate) {
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        byte[] key = (scanId + "/rate").getBytes(StandardCharsets.UTF_8);
        String topic = kafka.namespace().scanControl();
        try (Producer<byte[], byte[]> producer =
                kafka.newProducer(kafka.namespace().group("throttle-" + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            var control = new ScanControl(scanId, false, System.currentTimeMillis(), true, maxRate, maxWriteRate);
            producer.send(new ProducerRecord<>(topic, key, serializer.serialize(topic, control)));
            producer.commitTransaction();
            producer.close(Duration.ofSeconds(10));
        }
    }
}
