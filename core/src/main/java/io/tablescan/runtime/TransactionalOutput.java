package io.tablescan.runtime;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's transactional producer and its whole lifecycle (after Kafka Streams' {@code StreamsProducer}): created
 * with its transactions initialised, one transaction per commit (the records, then the consumed offsets), aborted
 * when the commit fails, replaced when it is fenced or broken, closed. Used by the worker loop's thread only.
 *
 * <p>Why a fenced producer is replaced instead of ending the worker: its transactional id is this instance's alone
 * (a random one per instance, see {@link WorkerRuntime#create}), so no other instance ever fences it. Zombies are
 * fenced through the consumer group instead (KIP-447): the offsets are committed with the consumer's group metadata,
 * and a member that missed a rebalance gets a {@code CommitFailedException}, an abortable error handled like any
 * failed commit (abort, replay). A {@link ProducerFencedException} or {@link InvalidProducerEpochException} therefore
 * means that the coordinator bumped this id's epoch by itself, typically when it aborted a transaction that outlived
 * {@code transaction.timeout.ms}, and an {@link OutOfOrderSequenceException} that the producer lost its sequence
 * state. Either way this producer can send nothing more, but nothing of its transaction was committed and the
 * instance is no zombie: the uncommitted work is replayed (here after the caller's rewind, or by whoever owns the
 * partition by now), and a new producer of the same id, whose initialisation aborts whatever the old one left open,
 * carries on.
 */
final class TransactionalOutput implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalOutput.class);

    /** What one transaction sends, given where to send it (which tells where each record was written). */
    @FunctionalInterface
    interface Records {
        void sendTo(Function<ProducerRecord<byte[], byte[]>, Future<RecordMetadata>> send);
    }

    private final String worker;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private Producer<byte[], byte[]> producer;

    /** {@code producers} makes a transactional producer (the same transactional id every time). */
    TransactionalOutput(String worker, Supplier<Producer<byte[], byte[]>> producers) {
        this.worker = worker;
        this.producers = producers;
    }

    /** Creates the producer and initialises its transactions (fencing an earlier producer of its id). */
    void open() {
        producer = producers.get();
        producer.initTransactions();
    }

    boolean isOpen() {
        return producer != null;
    }

    /**
     * What a transaction came to: committed, or aborted (nothing of it committed) with the records among it that the
     * broker refused for good (see {@link RefusedRecords}), by identity, each with its reason.
     */
    record Result(boolean committed, Map<ProducerRecord<byte[], byte[]>, Throwable> refused) {
        static final Result COMMITTED = new Result(true, Map.of());
        static final Result ABORTED = new Result(false, Map.of());
    }

    /**
     * One transaction: the records, then {@code offsets} committed for {@code group}. When it fails it is aborted:
     * nothing of it is committed, and the caller replays its work, or parks the items of the records refused for good.
     */
    Result commit(Records records, Map<TopicPartition, OffsetAndMetadata> offsets, Supplier<ConsumerGroupMetadata> group) {
        Map<ProducerRecord<byte[], byte[]>, Future<RecordMetadata>> sent = new IdentityHashMap<>();
        AtomicReference<String> firstRefusedTopic = new AtomicReference<>(); // see RefusedRecords#of
        try {
            producer.beginTransaction();
            records.sendTo(record -> {
                Future<RecordMetadata> future = producer.send(record, (metadata, e) -> {
                    if (e != null) {
                        firstRefusedTopic.compareAndSet(null, record.topic());
                    }
                });
                sent.put(record, future);
                return future;
            });
            producer.sendOffsetsToTransaction(offsets, group.get());
            producer.commitTransaction();
            return Result.COMMITTED;
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException e) {
            LOG.warn("{} worker: producer fenced or broken ({}), replacing it and replaying", worker, e.toString());
            replace();
            return Result.ABORTED;
        } catch (KafkaException e) {
            try {
                producer.abortTransaction();
            } catch (KafkaException abortFailure) {
                replace();
            }
            Map<ProducerRecord<byte[], byte[]>, Throwable> refused = RefusedRecords.of(sent, firstRefusedTopic.get()); // after the abort
            if (refused.isEmpty()) {
                LOG.warn("{} worker: transaction failed ({}), replaying", worker, e.toString());
            }
            return new Result(false, refused);
        }
    }

    /** A new producer of the same transactional id in place of one that can do nothing more (see above). */
    private void replace() {
        producer.close(Duration.ZERO);
        open();
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
