package io.tablescan.progress;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

/** Follows one scan's committed events until it is complete. */
public final class ScanWatcher implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Deserializer<SpecificRecord> deserializer;

    public ScanWatcher(KafkaSettings kafka) {
        var props = kafka.consumer("unused", 2000);
        props.remove("group.id");
        props.remove("group.protocol");
        this.consumer = new KafkaConsumer<>(props);
        this.deserializer = kafka.valueDeserializer();
    }

    /**
     * Reads the scan's events until it is complete or {@code timeout} passes, calling {@code progress} at most
     * every {@code interval}. Returns the totals; {@link ScanTotals#complete()} says which it was.
     */
    public ScanTotals await(String scanId, Duration timeout, Duration interval, Consumer<ScanTotals> progress) {
        // Events are keyed by scan id, so all of a scan's events are on one partition.
        List<PartitionInfo> partitions = consumer.partitionsFor(Topics.SCAN_EVENTS, Duration.ofSeconds(30));
        int partition = Utils.toPositive(Utils.murmur2(scanId.getBytes(StandardCharsets.UTF_8))) % partitions.size();
        TopicPartition tp = new TopicPartition(Topics.SCAN_EVENTS, partition);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        ScanTotals totals = new ScanTotals(scanId);
        Instant end = Instant.now().plus(timeout);
        Instant nextReport = Instant.now();
        while (Instant.now().isBefore(end)) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (scanId.equals(new String(record.key(), StandardCharsets.UTF_8))
                        && deserializer.deserialize(record.topic(), record.value()) instanceof ScanEvent event) {
                    totals.add(event);
                }
            }
            if (totals.complete()) {
                return totals;
            }
            if (progress != null && !Instant.now().isBefore(nextReport)) {
                progress.accept(totals);
                nextReport = Instant.now().plus(interval);
            }
        }
        return totals;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
