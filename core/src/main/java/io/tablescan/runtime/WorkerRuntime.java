package io.tablescan.runtime;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.tablescan.metrics.Health;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consume, process, produce: one Kafka transaction per poll. The records of a poll are processed
 * concurrently on virtual threads, then their outputs, their dead
 * letters, one scan event per scan and the consumed offsets are committed atomically. A failure before the
 * commit aborts it and rewinds, so every record is processed until its effects are committed: at least once,
 * and exactly once for everything written to Kafka.
 */
public final class WorkerRuntime<T extends SpecificRecord> implements Runnable, AutoCloseable, Health {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRuntime.class);
    /** A loop that has not come back to poll for this long is stuck (every item does bounded work). */
    private static final Duration STUCK_AFTER = Duration.ofMinutes(10);

    private final String worker;
    private final String inputTopic;
    private final Consumer<byte[], byte[]> consumer;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final ItemProcessor<T> processor;
    private final AutoCloseable cancelFollower;
    private final Serializer<SpecificRecord> serializer;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicLong processed = new AtomicLong();
    private final WorkerMeters meters;
    private final KafkaClientMetrics consumerMetrics;
    private volatile boolean running = true;
    private final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean subscribed;
    private volatile long lastProgressNanos = System.nanoTime();
    private Producer<byte[], byte[]> producer;

    public WorkerRuntime(String worker, String inputTopic, ItemHandler<T> handler, Consumer<byte[], byte[]> consumer,
            Supplier<Producer<byte[], byte[]>> producers, Serializer<SpecificRecord> serializer,
            Deserializer<SpecificRecord> deserializer, int maxInFlight, Predicate<String> cancelled,
            AutoCloseable cancelFollower) {
        this.worker = worker;
        this.cancelFollower = cancelFollower;
        this.inputTopic = inputTopic;
        this.consumer = consumer;
        this.producers = producers;
        this.serializer = serializer;
        this.processor = new ItemProcessor<>(worker, handler, serializer, deserializer, maxInFlight, cancelled);
        this.meters = new WorkerMeters(worker, ItemKind.ofTopic(inputTopic));
        this.consumerMetrics = new KafkaClientMetrics(consumer); // consumer lag, fetch rates
        consumerMetrics.bindTo(Metrics.globalRegistry);
    }

    /** The consumer group of a worker kind (KEDA scales each kind on its group's lag). */
    public static String groupId(String worker) {
        return "tablescan-" + worker;
    }

    /** A runtime with real Kafka clients, from the worker's settings. */
    public static <T extends SpecificRecord> WorkerRuntime<T> create(WorkerSettings settings, String worker,
            String inputTopic, ItemHandler<T> handler, int maxPollRecords) {
        KafkaSettings kafka = settings.kafka();
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(kafka.consumer(groupId(worker), maxPollRecords));
        // One transactional id per instance; zombies are fenced through the consumer group metadata (KIP-447).
        String transactionalId = "tablescan-" + worker + "-" + UUID.randomUUID();
        CancelledScans cancelled = CancelledScans.follow(kafka);
        return new WorkerRuntime<>(worker, inputTopic, handler, consumer,
                () -> new KafkaProducer<>(kafka.producer(transactionalId)), kafka.valueSerializer(),
                kafka.valueDeserializer(), settings.maxInFlight(), cancelled::contains, cancelled);
    }

    @Override
    public void run() {
        if (started.getAndSet(true)) {
            return; // closed before it ran, or already running
        }
        try {
            producer = producers.get();
            producer.initTransactions();
            consumer.subscribe(List.of(inputTopic));
            subscribed = true;
            LOG.info("{} worker consuming {}", worker, inputTopic);
            while (running) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(Duration.ofMillis(500));
                } catch (WakeupException e) {
                    break;
                }
                lastProgressNanos = System.nanoTime();
                if (!records.isEmpty()) {
                    processAndCommit(records);
                }
            }
        } finally {
            closeClients();
            stopped.countDown();
        }
    }

    /** Live while the loop runs and keeps coming back to poll (a poll's batch is bounded work). */
    @Override
    public boolean live() {
        return stopped.getCount() > 0 && System.nanoTime() - lastProgressNanos < STUCK_AFTER.toNanos();
    }

    /** Ready once subscribed with a transactional producer, until it stops. */
    @Override
    public boolean ready() {
        return subscribed && running && stopped.getCount() > 0;
    }

    /** Items this instance has processed and committed. */
    public long processed() {
        return processed.get();
    }

    private void processAndCommit(ConsumerRecords<byte[], byte[]> records) {
        List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>(records.count());
        records.forEach(list::add);
        List<ItemProcessor.Outcome> outcomes = processConcurrently(list);
        try {
            producer.beginTransaction();
            Map<String, ScanEventBuilder> events = new LinkedHashMap<>();
            for (ItemProcessor.Outcome outcome : outcomes) {
                outcome.records().forEach(producer::send);
                count(outcome, events);
            }
            events.forEach((scanId, event) -> producer.send(new ProducerRecord<>(Topics.SCAN_EVENTS,
                    scanId.getBytes(StandardCharsets.UTF_8), serializer.serialize(Topics.SCAN_EVENTS, event.build()))));
            producer.sendOffsetsToTransaction(nextOffsets(records), consumer.groupMetadata());
            producer.commitTransaction();
            processed.addAndGet(list.size());
            meters.committed(outcomes);
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException e) {
            LOG.warn("{} worker: producer fenced or broken ({}), replacing it and replaying the batch", worker, e.toString());
            producer.close(Duration.ZERO);
            producer = producers.get();
            producer.initTransactions();
            meters.aborted();
            rewind(records);
        } catch (KafkaException e) {
            LOG.warn("{} worker: transaction failed ({}), replaying the batch", worker, e.toString());
            try {
                producer.abortTransaction();
            } catch (KafkaException abortFailure) {
                producer.close(Duration.ZERO);
                producer = producers.get();
                producer.initTransactions();
            }
            meters.aborted();
            rewind(records);
        }
    }

    private List<ItemProcessor.Outcome> processConcurrently(List<ConsumerRecord<byte[], byte[]>> list) {
        // Every record on its own virtual thread, even one partition's batches: distinct rows, written with
        // upsert-replace, need no order, and a big partition's batches would otherwise be written one by one.
        ItemProcessor.Outcome[] outcomes = new ItemProcessor.Outcome[list.size()];
        List<Future<?>> futures = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            int index = i;
            futures.add(executor.submit(() -> outcomes[index] = processor.process(list.get(index))));
        }
        for (Future<?> future : futures) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while processing");
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("unexpected processing failure", e.getCause());
            }
        }
        return Arrays.asList(outcomes);
    }

    private static void count(ItemProcessor.Outcome outcome, Map<String, ScanEventBuilder> events) {
        if (outcome.scanId() == null) {
            return;
        }
        ScanEventBuilder event = events.computeIfAbsent(outcome.scanId(), ScanEventBuilder::new);
        if (outcome.retries() != null) {
            event.retries(outcome.retries()[0], outcome.retries()[1]);
        }
        if (outcome.skipped()) {
            event.skipped(outcome.kind());
            return;
        }
        if (outcome.error() != null) {
            event.failed(outcome.kind(), outcome.error());
            return;
        }
        event.done(outcome.kind(), outcome.depth(), outcome.result());
        outcome.result().emitted().forEach(item -> event.emitted(ItemKind.of(item)));
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<byte[], byte[]> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> part = records.records(tp);
            offsets.put(tp, new OffsetAndMetadata(part.get(part.size() - 1).offset() + 1));
        }
        return offsets;
    }

    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition tp : records.partitions()) {
            if (consumer.assignment().contains(tp)) {
                consumer.seek(tp, records.records(tp).get(0).offset());
            }
        }
    }

    private void closeClients() {
        try {
            consumer.close(); // leaves the group so its partitions move at once
        } catch (RuntimeException e) {
            LOG.debug("closing consumer", e);
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        executor.shutdownNow();
        consumerMetrics.close();
        try {
            cancelFollower.close();
        } catch (Exception e) {
            LOG.debug("closing the cancel follower", e);
        }
    }

    /** Stops after the batch in hand is committed (or abandoned), then leaves the group. */
    @Override
    public void close() {
        running = false;
        if (!started.compareAndExchange(false, true)) {
            closeClients(); // never ran
            stopped.countDown();
            return;
        }
        consumer.wakeup();
        try {
            stopped.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
