package io.tablescan.runtime;

import io.tablescan.schema.ScanControl;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scans an operator cancelled, followed from the compacted scan-control topic on a background thread, so
 * a worker can skip a cancelled scan's items within a poll or two of the cancel; the scans throttled there are
 * passed on as they are seen (their caps are read by {@code io.tablescan.rate}).
 */
public final class CancelledScans implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CancelledScans.class);
    /** A record ends a poll at once and close() wakes it: a long poll only spares the loop's idle turns. */
    private static final Duration FOLLOW_POLL = Duration.ofSeconds(5);

    private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final Deserializer<SpecificRecord> deserializer;
    private final Thread thread;
    private final java.util.function.Consumer<String> throttled;
    private final java.util.function.BiConsumer<String, Boolean> cancels;

    private CancelledScans(KafkaSettings kafka, java.util.function.Consumer<String> throttled,
            java.util.function.BiConsumer<String, Boolean> cancels) {
        this.throttled = throttled;
        this.cancels = cancels;
        this.consumer = kafka.newFollower();
        this.topic = kafka.namespace().scanControl();
        this.deserializer = kafka.valueDeserializer();
        this.thread = Thread.ofPlatform().name("cancelled-scans").daemon().unstarted(this::follow);
    }

    /** Starts following the scan-control topic (which must exist). */
    public static CancelledScans follow(KafkaSettings kafka) {
        return follow(kafka, scanId -> {});
    }

    /** As {@link #follow(KafkaSettings)}, telling {@code throttled} each scan a throttle record names. */
    public static CancelledScans follow(KafkaSettings kafka, java.util.function.Consumer<String> throttled) {
        return follow(kafka, throttled, (scanId, cancelled) -> {});
    }

    /** As above, telling {@code cancels} each scan cancelled (true) or whose cancel was withdrawn (false). */
    public static CancelledScans follow(KafkaSettings kafka, java.util.function.Consumer<String> throttled,
            java.util.function.BiConsumer<String, Boolean> cancels) {
        CancelledScans scans = new CancelledScans(kafka, throttled, cancels);
        scans.thread.start();
        return scans;
    }

    public boolean contains(String scanId) {
        return scanId != null && cancelled.contains(scanId);
    }

    private void follow() {
        try {
            List<TopicPartition> partitions = Topics.partitions(consumer, topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(FOLLOW_POLL)) {
                    apply(record);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("stopped following {}: cancels will not be seen by this worker ({})", topic, e.toString());
        } finally {
            consumer.close(Duration.ZERO); // no group to leave, nothing to commit: no wait for the fetch in flight
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        try {
            if (record.value() != null && deserializer.deserialize(record.topic(), record.value()) instanceof ScanControl c) {
                if (c.getThrottle()) { // a rate change says nothing of cancels
                    throttled.accept(c.getScanId());
                } else if (c.getCancelled()) {
                    cancelled.add(c.getScanId());
                    cancels.accept(c.getScanId(), true);
                } else {
                    cancelled.remove(c.getScanId());
                    cancels.accept(c.getScanId(), false);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("ignoring an unreadable record at {}-{}@{}", record.topic(), record.partition(), record.offset());
        }
    }

    @Override
    public void close() {
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
