package io.tablescan.runtime;

import io.tablescan.items.WorkItems;
import io.tablescan.rate.ScanRates;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.SinkRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A local scan's first items, handled in this process while its embedded broker starts (about a second in which
 * the source and the destination would wait): the root prefix query, then the items it emitted and theirs, for as
 * long as the caller allows, by the handlers the discovery, partition and copy workers run. Their outcomes are what
 * those workers' transactions would have committed (events, the outputs not handled here, a failed item's dead
 * letter), and the seed commits them in its one transaction with the scan's first event (see {@code ScanStarter}):
 * the items left go to the workers. Nothing is committed before the seed: a run that stops first has written rows
 * of no scan, which a rerun writes again, as a worker's replay would.
 */
public final class FirstItems {
    /** The workers whose items these are (their NAMEs, in the workers' modules): their metrics count them. */
    private static final String DISCOVERY = "discovery";
    private static final String PARTITION = "partition";
    private static final String COPY = "copy";

    /** A worker's part here: its name and input for its metrics, and its handler. */
    private record Worker(String name, ItemKind input, ItemProcessor<?> processor) {}

    /** An item handled here, by its worker's handler. */
    private record Handled(Worker worker, ItemProcessor.Outcome outcome) {}

    private final List<Handled> handled = new ArrayList<>();
    /** The outputs handled here as items of their own: not sent, their outcomes stand for them. */
    private final Set<ProducerRecord<byte[], byte[]>> taken = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<String> itemTopics;

    private FirstItems(Set<String> itemTopics) {
        this.itemTopics = itemTopics;
    }

    /**
     * Whether a scan's first items can be handled before its Kafka is up: its rows go to a table, which holds them
     * once written (no sink's commit point to keep until the seed), or nowhere (a count); not to a plugin or a
     * topic; and it has no rate cap (a cap's shares are agreed on over Kafka).
     */
    public static boolean possible(ScanSpec spec) {
        SinkRef sink = SinkRefs.of(spec);
        return !ScanRates.capped(spec) && (sink == null || SinkRefs.TABLE.equals(sink.type()));
    }

    /**
     * Handles {@code spec}'s root item with {@code discovery}, then, while {@code more} says so, the items that
     * follow from it (prefix queries with {@code discovery}, partition queries with {@code partitions}, entity pages
     * with {@code writer}) one at a time, pages first; {@code kafka} gives the names and serializers of the Kafka the
     * scan will run on, and is not contacted.
     */
    public static FirstItems handle(KafkaSettings kafka, ScanSpec spec, ItemHandler<PrefixQuery> discovery,
            ItemHandler<PartitionQuery> partitions, ItemHandler<SpecificRecord> writer, BooleanSupplier more) {
        Namespace names = kafka.namespace();
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        Map<String, Worker> workers = Map.of(
                names.prefixQueries(), worker(kafka, DISCOVERY, ItemKind.PREFIX_QUERY, discovery),
                names.partitionQueries(), worker(kafka, PARTITION, ItemKind.PARTITION_QUERY, partitions),
                names.entityBatches(), worker(kafka, COPY, ItemKind.ENTITY_BATCH, writer));
        PrefixQuery root = WorkItems.root(spec);
        String rootTopic = names.prefixQueries();
        Deque<ProducerRecord<byte[], byte[]>> pages = new ArrayDeque<>();
        Deque<ProducerRecord<byte[], byte[]>> queries = new ArrayDeque<>();
        queries.add(new ProducerRecord<>(rootTopic, ItemKind.key(root), serializer.serialize(rootTopic, root)));
        FirstItems first = new FirstItems(workers.keySet());
        while (!pages.isEmpty() || !queries.isEmpty()) {
            if (!first.handled.isEmpty() && !more.getAsBoolean()) {
                break;
            }
            ProducerRecord<byte[], byte[]> item = pages.isEmpty() ? queries.poll() : pages.poll(); // rows first
            Worker worker = workers.get(item.topic());
            ItemProcessor.Outcome outcome = worker.processor().process(record(item.topic(), item.key(), item.value()));
            first.taken.add(item);
            first.handled.add(new Handled(worker, outcome));
            if (outcome.error() != null) {
                continue; // its records are its dead letter
            }
            for (ProducerRecord<byte[], byte[]> output : outcome.records()) {
                if (workers.containsKey(output.topic())) {
                    (output.topic().equals(names.entityBatches()) ? pages : queries).add(output);
                }
            }
        }
        return first;
    }

    private static <T extends SpecificRecord> Worker worker(KafkaSettings kafka, String name, ItemKind input,
            ItemHandler<T> handler) {
        return new Worker(name, input, new ItemProcessor<>(name, kafka.namespace(), handler, kafka.valueSerializer(),
                kafka.valueDeserializer(), 1, scan -> false));
    }

    /** A record as if fetched: it was never written, so it has no partition nor offset (-1 in a dead letter). */
    private static ConsumerRecord<byte[], byte[]> record(String topic, byte[] key, byte[] value) {
        return new ConsumerRecord<>(topic, -1, -1L, key, value);
    }

    /** Whether no item is left for the workers: every one was handled here (or parked). */
    public boolean all() {
        return handled.stream().allMatch(each -> left(each).stream().noneMatch(r -> itemTopics.contains(r.topic())));
    }

    /** An item's outputs not handled here: what its worker would have sent. */
    private List<ProducerRecord<byte[], byte[]>> left(Handled item) {
        return item.outcome().records().stream().filter(record -> !taken.contains(record)).toList();
    }

    /** What the seed's transaction sends after the scan's first event: the items' outputs, then their events. */
    public void sendTo(KafkaSettings kafka, Consumer<ProducerRecord<byte[], byte[]>> send) {
        PendingCommit done = new PendingCommit();
        handled.forEach(each -> done.add(each.outcome().withRecords(left(each))));
        done.records(kafka.namespace().scanEvents(), kafka.valueSerializer()).sendTo(record -> {
            send.accept(record);
            return null;
        });
    }

    /** Once the seed committed: the items and rows counted in their workers' metrics (not as their transactions). */
    public void committed() {
        handled.stream().collect(Collectors.groupingBy(Handled::worker, LinkedHashMap::new,
                Collectors.mapping(Handled::outcome, Collectors.toList())))
                .forEach((worker, outcomes) -> new WorkerMeters(worker.name(), worker.input()).counted(outcomes));
    }
}
