package io.tablescan.control;

import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.runtime.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A scan's failed items, as parked in the dead-letter topic. A retry re-submits the ones not retried yet to
 * their original topics, records them as retried for the ledger, and moves the scan's retry position past
 * them, all in one transaction: each parked item is re-submitted at most once per failure.
 */
public final class FailedItems implements AutoCloseable {
    /** One parked item. {@code retried}: a retry already re-submitted it. */
    public record Failure(String originalTopic, int originalPartition, long originalOffset, String errorClass,
            String errorMessage, int attempts, boolean retried, TopicPartition at, long offset) {}

    private final KafkaSettings kafka;
    private final String scanId;
    private final Consumer<byte[], byte[]> consumer;

    public FailedItems(KafkaSettings kafka, String scanId) {
        this.kafka = kafka;
        this.scanId = scanId;
        // The group only stores how far retries of this scan have gone; it never joins (partitions are assigned).
        Properties props = kafka.consumer(retryGroup(), 500);
        props.remove("group.protocol");
        this.consumer = kafka.clients().consumer(props);
    }

    private String retryGroup() {
        return kafka.namespace().group("retry-" + scanId);
    }

    /** Every parked item of the scan, in topic order. */
    public List<Failure> list() {
        List<Failure> failures = new ArrayList<>();
        read(true, failures);
        return failures;
    }

    /** Re-submits the failures not retried yet; returns how many. */
    public int retry() {
        List<Failure> pending = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        Map<TopicPartition, Long> ends = read(false, pending, records);
        if (records.isEmpty()) {
            return 0;
        }
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        ScanEventBuilder event = new ScanEventBuilder(scanId);
        try (Producer<byte[], byte[]> producer = kafka.newProducer(retryGroup())) {
            producer.initTransactions(); // the same transactional id fences a concurrent retry of this scan
            producer.beginTransaction();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                String topic = DeadLetters.header(record.headers(), DeadLetters.ORIGINAL_TOPIC);
                ProducerRecord<byte[], byte[]> again = new ProducerRecord<>(topic, null, record.key(), record.value());
                for (Header header : record.headers()) {
                    if (!header.key().startsWith("tablescan.")) {
                        again.headers().add(header);
                    }
                }
                producer.send(again);
                event.retried(kafka.namespace().kindOf(topic));
            }
            String events = kafka.namespace().scanEvents();
            producer.send(new ProducerRecord<>(events, scanId.getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(events, event.build())));
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            ends.forEach((tp, end) -> offsets.put(tp, new OffsetAndMetadata(end)));
            producer.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata(retryGroup()));
            producer.commitTransaction();
            producer.close(Duration.ofSeconds(10));
        }
        return records.size();
    }

    private Map<TopicPartition, Long> read(boolean all, List<Failure> failures) {
        return read(all, failures, new ArrayList<>());
    }

    /** Reads the dead letters of this scan from the start ({@code all}) or from the retry position, to the end. */
    private Map<TopicPartition, Long> read(boolean all, List<Failure> failures, List<ConsumerRecord<byte[], byte[]>> records) {
        List<TopicPartition> partitions = Topics.partitions(consumer, kafka.namespace().deadLetters());
        consumer.assign(partitions);
        Map<TopicPartition, OffsetAndMetadata> retriedUpTo = consumer.committed(new java.util.HashSet<>(partitions));
        consumer.seekToBeginning(partitions);
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata committed = retriedUpTo.get(tp);
            if (!all && committed != null) {
                consumer.seek(tp, committed.offset());
            }
        }
        return Topics.readToEnd(consumer, record -> { // a letter past the end belongs to the next retry
            if (!scanId.equals(DeadLetters.header(record.headers(), DeadLetters.SCAN_ID))
                    || kafka.namespace().kindOf(DeadLetters.header(record.headers(), DeadLetters.ORIGINAL_TOPIC)) == null) {
                return true;
            }
            OffsetAndMetadata committed = retriedUpTo.get(new TopicPartition(record.topic(), record.partition()));
            failures.add(failure(record, committed != null && record.offset() < committed.offset()));
            records.add(record);
            return true;
        });
    }

    private static Failure failure(ConsumerRecord<byte[], byte[]> r, boolean retried) {
        var h = r.headers();
        return new Failure(DeadLetters.header(h, DeadLetters.ORIGINAL_TOPIC),
                (int) number(DeadLetters.header(h, DeadLetters.ORIGINAL_PARTITION)),
                number(DeadLetters.header(h, DeadLetters.ORIGINAL_OFFSET)),
                DeadLetters.header(h, DeadLetters.ERROR_CLASS), DeadLetters.header(h, DeadLetters.ERROR_MESSAGE),
                (int) number(DeadLetters.header(h, DeadLetters.ATTEMPTS)), retried,
                new TopicPartition(r.topic(), r.partition()), r.offset());
    }

    private static long number(String s) {
        try {
            return s == null ? -1 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
