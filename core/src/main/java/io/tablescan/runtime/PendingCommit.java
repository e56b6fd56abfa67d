package io.tablescan.runtime;

import io.tablescan.schema.ScanEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Finished records waiting for the next Kafka transaction, which sends their outputs and commits them at
 * once: a transaction is open only while it commits, so a crashed worker rarely leaves one open (an open one
 * holds back every read_committed consumer of its topics until it times out).
 */
final class PendingCommit {
    private final List<ItemProcessor.Outcome> outcomes = new ArrayList<>();
    /** The chains' next links among the outputs, and where the transaction wrote each (once it sent them). */
    private final Map<ProducerRecord<byte[], byte[]>, LocalChains.Link> links = new IdentityHashMap<>();
    private final Map<LocalChains.Link, Future<RecordMetadata>> written = new LinkedHashMap<>();
    private final Map<String, ScanEventBuilder> events = new LinkedHashMap<>();
    private long firstNanos = -1;

    boolean any() {
        return firstNanos >= 0;
    }

    /** How long the oldest finished record has waited. */
    Duration age() {
        return Duration.ofNanos(System.nanoTime() - firstNanos);
    }

    /** A finished record whose thread goes on with {@code next} once this transaction has written it. */
    void add(ItemProcessor.Outcome outcome, LocalChains.Link next) {
        links.put(next.record, next);
        add(outcome);
    }

    /** Whether a chain waits for this transaction to go on: worth committing at once. */
    boolean chainWaits() {
        return !links.isEmpty();
    }

    /** A finished record: its outputs, and its contribution to its scan's event. */
    void add(ItemProcessor.Outcome outcome) {
        if (firstNanos < 0) {
            firstNanos = System.nanoTime();
        }
        outcomes.add(outcome);
        count(outcome);
    }

    /**
     * Every record of the transaction replaced by {@code parked}'s outcome of it (the done ones parked when their
     * sinks' commit point failed for good), the scans' events counted anew.
     */
    void park(java.util.function.UnaryOperator<ItemProcessor.Outcome> parked) {
        outcomes.replaceAll(parked);
        links.values().forEach(LocalChains.Link::drop); // a parked record's next link is not sent: its chain stops
        links.clear();
        events.clear();
        outcomes.forEach(this::count);
    }

    /**
     * The records whose outputs include one of {@code refused} replaced by {@code parked}'s outcome of them, with
     * that record's reason (see {@link RefusedRecords}); the scans' events counted anew. How many were parked.
     */
    int park(Map<ProducerRecord<byte[], byte[]>, Throwable> refused,
            java.util.function.BiFunction<ItemProcessor.Outcome, Throwable, ItemProcessor.Outcome> parked) {
        int count = 0;
        for (int i = 0; i < outcomes.size(); i++) {
            ItemProcessor.Outcome outcome = outcomes.get(i);
            Throwable reason = outcome.records().stream().map(refused::get).filter(java.util.Objects::nonNull)
                    .findFirst().orElse(null);
            ItemProcessor.Outcome replaced = reason == null ? outcome : parked.apply(outcome, reason);
            if (replaced != outcome) {
                outcome.records().forEach(record -> {
                    LocalChains.Link link = links.remove(record);
                    if (link != null) {
                        link.drop(); // not sent: its chain stops here
                    }
                });
                outcomes.set(i, replaced);
                count++;
            }
        }
        events.clear();
        outcomes.forEach(this::count);
        return count;
    }

    /** An outcome's contribution to its scan's event. */
    private void count(ItemProcessor.Outcome outcome) {
        if (outcome.scanId() == null) {
            return; // an undecodable record: parked, belongs to no scan
        }
        ScanEventBuilder event = events.computeIfAbsent(outcome.scanId(), ScanEventBuilder::new);
        if (outcome.retries() != null) {
            event.retries(outcome.retries()[0], outcome.retries()[1]);
        }
        if (outcome.skipped()) {
            event.skipped(outcome.kind());
        } else if (outcome.error() != null) {
            event.failed(outcome.kind(), outcome.error());
        } else {
            event.done(outcome.kind(), outcome.depth(), outcome.result());
            outcome.result().emitted().forEach(item -> event.emitted(ItemKind.of(item)));
        }
    }

    List<ItemProcessor.Outcome> outcomes() {
        return outcomes;
    }

    /** What the transaction sends: the outputs of the finished records, then their scans' events to {@code topic}. */
    TransactionalOutput.Records records(String topic, Serializer<SpecificRecord> serializer) {
        return send -> {
            written.clear();
            outcomes.forEach(outcome -> outcome.records().forEach(record -> {
                Future<RecordMetadata> sent = send.apply(record);
                LocalChains.Link link = links.get(record);
                if (link != null) {
                    written.put(link, sent);
                }
            }));
            events().forEach(event -> send.apply(new ProducerRecord<>(topic,
                    event.getScanId().getBytes(StandardCharsets.UTF_8), serializer.serialize(topic, event))));
        };
    }

    /** One event per scan, summing the transaction's records. */
    List<ScanEvent> events() {
        return events.values().stream().map(ScanEventBuilder::build).toList();
    }

    /**
     * After the transaction committed: each link's record and where it was written (complete by now: a commit
     * flushes its sends).
     */
    Map<LocalChains.Link, Future<RecordMetadata>> written() {
        return written;
    }

    /** Forgets the transaction's work; the links nobody took in hand are left to Kafka. */
    void clear() {
        links.values().forEach(LocalChains.Link::drop);
        links.clear();
        written.clear();
        outcomes.clear();
        events.clear();
        firstNanos = -1;
    }
}
