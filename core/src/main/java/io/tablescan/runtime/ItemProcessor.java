package io.tablescan.runtime;

import io.tablescan.items.EntityPages;
import io.tablescan.items.WorkItemValidator;
import io.tablescan.rate.WaitStoppedException;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.FailedWriteException;
import io.tablescan.table.RetryingTableStore.FailedRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Turns one consumed record into what the transaction must write: the emitted items (already serialized, so
 * an oversized output fails its own item, not the whole transaction; entity batches packed into entity pages),
 * or a dead letter with the reason.
 */
final class ItemProcessor<T extends SpecificRecord> {
    /**
     * Outputs of one record, and its contribution to its scan's event; {@code input}: the record itself, parked
     * instead if its sinks' commit point fails for good (null when not known).
     */
    record Outcome(List<ProducerRecord<byte[], byte[]>> records, String scanId, ItemKind kind, int depth,
            ItemHandler.Result result, String error, long[] retries, ConsumerRecord<byte[], byte[]> input) {
        Outcome(List<ProducerRecord<byte[], byte[]>> records, String scanId, ItemKind kind, int depth,
                ItemHandler.Result result, String error, long[] retries) {
            this(records, scanId, kind, depth, result, error, retries, null);
        }

        boolean skipped() {
            return result == null && error == null && scanId != null;
        }

        /** The same outcome with these outputs in place of its own (one redirected, say). */
        Outcome withRecords(List<ProducerRecord<byte[], byte[]>> records) {
            return new Outcome(records, scanId, kind, depth, result, error, retries, input);
        }

        /**
         * A done record parked with {@code error} in place of its outputs, counted as failed (its rows may not be
         * durable: its sinks' commit point failed); any other outcome as it is.
         */
        Outcome parked(Namespace namespace, String worker, Throwable error) {
            if (result == null || input == null) {
                return this;
            }
            int attempts = error instanceof FailedWriteException w ? w.attempts() : 1;
            return new Outcome(List.of(DeadLetters.of(namespace, input, scanId, error, attempts, worker)), scanId,
                    kind, depth, null, error.getClass().getSimpleName() + ": " + error.getMessage(), retries, input);
        }

        /**
         * This outcome after the broker refused one of its records for good ({@code reason}): parked (see
         * {@link #parked}); or, when the record refused is its dead letter (a dead-letter topic made by hand with a
         * smaller max.message.bytes), failed with both reasons and no output, since a dead letter refused at every
         * replay would hold every other item for ever.
         */
        Outcome refused(Namespace namespace, String worker, Throwable reason) {
            boolean deadLetter = !records.isEmpty()
                    && records.stream().allMatch(r -> r.topic().equals(namespace.deadLetters()));
            if (!deadLetter) {
                return parked(namespace, worker, reason);
            }
            return new Outcome(List.of(), scanId, kind, depth, null, (error == null ? "" : error + "; ")
                    + "not parked, its dead letter refused: " + reason.getMessage(), retries, input);
        }
    }

    private final String worker;
    private final Namespace namespace;
    private final ItemHandler<T> handler;
    private final Serializer<SpecificRecord> serializer;
    private final Deserializer<SpecificRecord> deserializer;
    private final Semaphore inFlight;
    private final AtomicInteger handling;
    private final Predicate<String> cancelled;
    /** Items left undone as the workers stopped, after they had written: their writes are in no count. */
    private final AtomicLong stoppedAfterWriting = new AtomicLong();

    ItemProcessor(String worker, Namespace namespace, ItemHandler<T> handler, Serializer<SpecificRecord> serializer,
            Deserializer<SpecificRecord> deserializer, int maxInFlight, Predicate<String> cancelled) {
        this.cancelled = cancelled;
        this.worker = worker;
        this.namespace = namespace;
        this.handler = handler;
        this.serializer = serializer;
        this.deserializer = deserializer;
        this.inFlight = new Semaphore(maxInFlight, true); // fair: oldest records first, so committed offsets keep moving;
        this.handling = WorkerMeters.inFlight(worker);
    }

    /** How many items were left undone as the workers stopped after they had written (see {@link WorkerRuntime}). */
    long stoppedAfterWriting() {
        return stoppedAfterWriting.get();
    }

    /** Whether an item could start handling now, no other one waiting for a slot. */
    boolean slotFree() {
        return inFlight.availablePermits() > 0 && !inFlight.hasQueuedThreads();
    }

    Outcome process(ConsumerRecord<byte[], byte[]> record) {
        return handle(record.topic(), record.headers(), record.value()).outcome(record);
    }

    /** What a record's handling came to, made into its outcome once the record is known (where it was written). */
    @FunctionalInterface
    interface Handled {
        Outcome outcome(ConsumerRecord<byte[], byte[]> record);
    }

    /**
     * Handles the item these bytes hold now; its outcome names the record later, so that a chain's next link can be
     * read while the transaction that writes its record commits (see {@link LocalChains}).
     */
    Handled handle(String topic, Headers headers, byte[] value) {
        T item;
        try {
            SpecificRecord decoded = deserializer.deserialize(topic, headers, value);
            if (!handler.type().isInstance(decoded)) {
                throw new IllegalArgumentException("expected " + handler.type().getSimpleName() + " on " + topic
                        + ", got " + (decoded == null ? "null" : decoded.getSchema().getName()));
            }
            item = handler.type().cast(decoded);
        } catch (RuntimeException e) {
            // Belongs to no scan we can name: parked, not counted.
            return record -> new Outcome(List.of(DeadLetters.of(namespace, record, null, e, 1, worker)), null, null, 0,
                    null, null, null);
        }
        ScanSpec spec = ItemKind.spec(item);
        ItemKind kind = ItemKind.of(item);
        int depth = ItemKind.depth(item);
        if (spec != null && cancelled.test(spec.getScanId())) {
            return record -> new Outcome(List.of(), spec.getScanId(), kind, depth, null, null, null); // skipped
        }
        ItemContext context = new ItemContext(spec);
        try {
            WorkItemValidator.check(item);
            ItemHandler.Result result = paged(handleBounded(item, context));
            List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(result.emitted().size());
            for (SpecificRecord emitted : result.emitted()) {
                String emittedTo = namespace.topic(ItemKind.of(emitted));
                byte[] bytes = serializer.serialize(emittedTo, emitted);
                if (bytes.length > Topics.MAX_MESSAGE_BYTES - 65_536) {
                    throw new IllegalStateException("an emitted " + ItemKind.of(emitted) + " is too large: " + bytes.length + " bytes");
                }
                out.add(new ProducerRecord<>(emittedTo, ItemKind.key(emitted), bytes));
            }
            for (ProducerRecord<byte[], byte[]> published : context.published()) {
                // One the broker would refuse would fail the whole transaction again at every replay: fails its item.
                if (published.value() != null && published.value().length > Topics.MAX_MESSAGE_BYTES - 65_536) {
                    throw new IllegalStateException("a record for topic " + published.topic() + " is too large: "
                            + published.value().length + " bytes");
                }
                out.add(published);
            }
            long[] counts = counts(context);
            return record -> new Outcome(out, spec.getScanId(), kind, depth, result, null, counts, record);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (RuntimeException | LinkageError | AssertionError e) {
            if (WaitStoppedException.cancelledIn(e) && !context.hasWritten()) { // its scan cancelled: skipped
                long[] counts = counts(context);
                return record -> new Outcome(List.of(), spec.getScanId(), kind, depth, null, null, counts);
            }
            if (WaitStoppedException.in(e)) {
                if (context.hasWritten()) {
                    stoppedAfterWriting.incrementAndGet();
                }
                return record -> null; // not sent as the workers stop: left undone, for whoever consumes it next
            }
            // A broken dependency (LinkageError) fails the item, not the worker thread: parked, counted, visible.
            int attempts = e instanceof FailedRequestException f ? f.attempts()
                    : e instanceof FailedWriteException w ? w.attempts() : 1;
            String error = e.getClass().getSimpleName() + ": " + e.getMessage();
            long[] counts = counts(context);
            return record -> new Outcome(List.of(DeadLetters.of(namespace, record, spec.getScanId(), e, attempts, worker)),
                    spec.getScanId(), kind, depth, null, error, counts);
        }
    }

    /** The result with its entity batches sent as entity pages (see {@link EntityPages}), counted as sent. */
    private static ItemHandler.Result paged(ItemHandler.Result result) {
        if (result.emitted().stream().noneMatch(EntityBatch.class::isInstance)) {
            return result;
        }
        return new ItemHandler.Result(EntityPages.pack(result.emitted()), result.rowsRead(), result.rowsWritten(),
                result.requests(), result.partitions(), result.counters());
    }

    private static long[] counts(ItemContext context) {
        return new long[] {context.retries(), context.throttles()};
    }

    private ItemHandler.Result handleBounded(T item, ItemContext context) throws InterruptedException {
        inFlight.acquire();
        handling.incrementAndGet();
        try {
            return handler.handle(item, context);
        } finally {
            handling.decrementAndGet();
            inFlight.release();
        }
    }
}
