package io.tablescan.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;

/**
 * A chain (a partition's items, each emitting the next) continued by the thread that processed its last link,
 * without the round trip through Kafka (commit, fetch, start). When a record's only output to the worker's own
 * input topic is its continuation, a read slot is free and the worker's hand is not full, the continuation is
 * produced to the record's own input partition, in the transaction that commits the record. Once that commits,
 * the loop thread takes the continuation's offset in hand in the partition's {@link PartitionProgress}. The
 * thread read it meanwhile, so a hand-off waits for no commit; its outputs then commit with its offset marked
 * done, as a fetched record's would, and when the consumer fetches it, it is skipped. If the transaction fails,
 * the partition moves or the worker stops first, the link is dropped and the continuation is processed from
 * Kafka, by whoever owns it then: every item is still one record, processed until its effects commit once.
 */
final class LocalChains {
    /** How long a thread waits for the transaction holding its continuation before leaving it to Kafka. */
    static final Duration WAIT = Duration.ofSeconds(30);

    /** A continuation produced to one of the worker's own partitions, for the thread that made it to go on with. */
    static final class Link {
        final TopicPartition tp;
        final PartitionProgress partition;
        final ProducerRecord<byte[], byte[]> record;
        /** Where it was written once its transaction committed and the loop took it in hand; null: dropped. */
        private final CompletableFuture<RecordMetadata> written = new CompletableFuture<>();

        Link(TopicPartition tp, PartitionProgress partition, ProducerRecord<byte[], byte[]> record) {
            this.tp = tp;
            this.partition = partition;
            this.record = record;
        }

        /** Taken in hand at this offset: the thread goes on with it. False when it gave up waiting first. */
        boolean start(RecordMetadata metadata) {
            return written.complete(metadata);
        }

        /** Left to be fetched from Kafka (if its transaction committed at all). No effect once started. */
        void drop() {
            written.complete(null);
        }

        /** The record as if fetched; empty when dropped or not resolved within {@code timeout}. */
        Optional<ConsumerRecord<byte[], byte[]>> await(Duration timeout) {
            try {
                written.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // given up: dropped below, unless the loop took it in hand in the meantime
            }
            written.complete(null);
            RecordMetadata at = written.getNow(null);
            if (at == null || Thread.currentThread().isInterrupted()) {
                return Optional.empty();
            }
            return Optional.of(new ConsumerRecord<>(tp.topic(), tp.partition(), at.offset(), at.timestamp(),
                    TimestampType.CREATE_TIME, ConsumerRecord.NULL_SIZE, ConsumerRecord.NULL_SIZE, record.key(),
                    record.value(), record.headers(), Optional.empty()));
        }
    }

    private final boolean enabled;
    private final BooleanSupplier slotFree;
    private final int maxInHand;
    private volatile boolean stopping;

    /**
     * {@code enabled}: the handler's items form chains; {@code slotFree}: whether an item could start reading now;
     * {@code maxInHand}: no link once the worker holds this many unfinished items.
     */
    LocalChains(boolean enabled, BooleanSupplier slotFree, int maxInHand) {
        this.enabled = enabled;
        this.slotFree = slotFree;
        this.maxInHand = maxInHand;
    }

    /** No new links from now on (the worker is stopping). */
    void stop() {
        stopping = true;
    }

    /**
     * The record that finished, with a link to its continuation when this worker should go on with it (its
     * output then redirected to the record's own partition); as it was when the continuation is left to Kafka.
     */
    InFlightItems.Completion next(InFlightItems.Completion done, int inHand) {
        ItemProcessor.Outcome outcome = done.outcome();
        if (!enabled || stopping || outcome == null || outcome.result() == null || inHand >= maxInHand
                || !slotFree.getAsBoolean()) {
            return done;
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(outcome.records());
        int only = -1;
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).topic().equals(done.tp().topic())) {
                if (only >= 0) {
                    return done; // a split, not a chain: its parts are for every worker
                }
                only = i;
            }
        }
        if (only < 0) {
            return done;
        }
        ProducerRecord<byte[], byte[]> next = records.get(only);
        ProducerRecord<byte[], byte[]> here = new ProducerRecord<>(next.topic(), done.tp().partition(), next.key(),
                next.value(), next.headers());
        records.set(only, here);
        return new InFlightItems.Completion(done.tp(), done.partition(), done.offset(), outcome.withRecords(records),
                new Link(done.tp(), done.partition(), here));
    }

    /**
     * The loop thread, after the transaction that wrote {@code link}'s record committed: takes it in hand, or
     * drops it ({@code current} false: the partition moved). True when the thread goes on.
     */
    boolean written(Link link, Future<RecordMetadata> sent, boolean current) {
        RecordMetadata metadata = sent.state() == Future.State.SUCCESS ? sent.resultNow() : null;
        if (!stopping && current && metadata != null && metadata.partition() == link.tp.partition()
                && link.partition.linked(metadata.offset())) {
            if (link.start(metadata)) {
                return true;
            }
            link.partition.unlinked(metadata.offset()); // its thread gave up waiting: fetched from Kafka instead
        }
        link.drop();
        return false;
    }

    /**
     * On the link's thread: handles it at once, while the transaction that writes its record commits (in one of
     * the worker's read slots, as any item), and keeps what it read once the record is in hand; null when the
     * link was left to Kafka, and what was read goes unused (reads change nothing; outputs are only ever sent by
     * the transaction that commits the item).
     */
    InFlightItems.Completion follow(Link link, Function<Link, ItemProcessor.Handled> handle) {
        ItemProcessor.Handled handled;
        try {
            handled = handle.apply(link);
        } catch (RuntimeException | Error e) { // left to Kafka, not held in hand by a thread that is gone
            link.drop();
            throw e;
        }
        return link.await(WAIT)
                .map(record -> new InFlightItems.Completion(link.tp, link.partition, record.offset(),
                        handled.outcome(record), null))
                .orElse(null);
    }
}
