package io.tablescan.runtime;

import io.tablescan.rate.Demands;
import io.tablescan.rate.Direction;
import io.tablescan.schema.RateDemand;
import io.tablescan.schema.ScanControl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka side of {@link io.tablescan.rate.ScanRates}: what every process wants of each capped scan, and the caps operators set while scans run: follows the
 * rate-demand topic (each process's demand, about once a second) and the throttle records of scan-control on a
 * background thread, and publishes this process's demands.
 */
public final class RateDemandBoard implements Demands {
    private static final Logger LOG = LoggerFactory.getLogger(RateDemandBoard.class);
    private final String process = UUID.randomUUID().toString();
    private final KafkaSettings kafka;
    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> producer;
    private final Serializer<SpecificRecord> serializer;
    private final Deserializer<SpecificRecord> deserializer;
    private final Map<String, RateDemand> demands = new ConcurrentHashMap<>();
    private final Map<String, ScanControl> throttles = new ConcurrentHashMap<>();
    private final Thread thread;

    public RateDemandBoard(KafkaSettings kafka) {
        this.kafka = kafka;
        this.consumer = kafka.newFollower();
        this.producer = kafka.newProducer(kafka.namespace().group("rate-" + process));
        this.serializer = kafka.valueSerializer();
        this.deserializer = kafka.valueDeserializer();
        producer.initTransactions();
        this.thread = Thread.ofPlatform().name("rate-demands").daemon().start(this::follow);
    }

    @Override
    public String process() {
        return process;
    }

    @Override
    public void publish(List<RateDemand> mine) {
        String topic = kafka.namespace().rateDemand();
        producer.beginTransaction();
        for (RateDemand d : mine) {
            byte[] key = (d.getProcess() + "/" + d.getScanId() + "/" + d.getDirection()).getBytes(StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(topic, key, serializer.serialize(topic, d)));
        }
        producer.commitTransaction();
    }

    @Override
    public List<RateDemand> demands(String scanId, Direction direction, long now) {
        List<RateDemand> fresh = new ArrayList<>();
        for (RateDemand d : demands.values()) {
            if (d.getScanId().equals(scanId) && d.getDirection().equals(direction.key)
                    && now - d.getTimeMillis() <= Demands.FRESH_MILLIS) {
                fresh.add(d);
            }
        }
        return fresh;
    }

    @Override
    public Long throttle(String scanId, Direction direction) {
        ScanControl c = throttles.get(scanId);
        return c == null ? null : direction == Direction.READ ? c.getMaxRate() : c.getMaxWriteRate();
    }

    private void follow() {
        try {
            List<TopicPartition> partitions = new ArrayList<>(Topics.partitions(consumer, kafka.namespace().rateDemand()));
            partitions.addAll(Topics.partitions(consumer, kafka.namespace().scanControl()));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    apply(record);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("stopped following the scans' rate demands: capped scans keep their last rates ({})", e.toString());
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return;
        }
        try {
            SpecificRecord value = deserializer.deserialize(record.topic(), record.value());
            if (value instanceof RateDemand d) {
                demands.put(d.getProcess() + "/" + d.getScanId() + "/" + d.getDirection(), d);
            } else if (value instanceof ScanControl c && c.getThrottle()) {
                throttles.merge(c.getScanId(), c, (old, now) -> merged(old, now));
            }
        } catch (RuntimeException e) {
            LOG.warn("ignoring an unreadable record at {}-{}@{}", record.topic(), record.partition(), record.offset());
        }
    }

    /** The later record's caps, each kept from the earlier one where the later leaves it unchanged (null). */
    static ScanControl merged(ScanControl old, ScanControl now) {
        ScanControl m = ScanControl.newBuilder(now).build();
        m.setMaxRate(now.getMaxRate() != null ? now.getMaxRate() : old.getMaxRate());
        m.setMaxWriteRate(now.getMaxWriteRate() != null ? now.getMaxWriteRate() : old.getMaxWriteRate());
        return m;
    }

    @Override
    public void close() {
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
