package io.tablescan.runtime;

import io.tablescan.items.WorkItems;
import io.tablescan.rate.ScanRates;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.SinkRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A local scan's first items, handled in this process while its embedded broker starts (about half a second in
 * which the source and the destination would wait): the root prefix query, then the entity pages it emitted, by
 * the handlers the discovery and copy workers run. Their outcomes are what those workers' transactions would have
 * committed (events, the outputs not handled here, a failed item's dead letter), and the seed commits them in its
 * one transaction with the scan's first event (see {@code ScanStarter}). Nothing is committed before the seed: a
 * run that stops first has written rows of no scan, which a rerun writes again, as a worker's replay would.
 */
public final class FirstItems {
    private final List<ItemProcessor.Outcome> read = new ArrayList<>();
    private final List<ItemProcessor.Outcome> written = new ArrayList<>();

    private FirstItems() {}

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
     * Handles {@code spec}'s root item with {@code discovery}, then each entity page it emitted with {@code writer};
     * {@code kafka} gives the names and serializers of the Kafka the scan will run on, and is not contacted.
     */
    public static FirstItems handle(KafkaSettings kafka, ScanSpec spec, ItemHandler<PrefixQuery> discovery,
            ItemHandler<SpecificRecord> writer) {
        Namespace names = kafka.namespace();
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        PrefixQuery root = WorkItems.root(spec);
        String rootTopic = names.prefixQueries();
        ItemProcessor.Outcome rootOutcome = new ItemProcessor<>(DISCOVERY, names, discovery, serializer,
                kafka.valueDeserializer(), 1, scan -> false)
                .process(record(rootTopic, ItemKind.key(root), serializer.serialize(rootTopic, root)));
        ItemProcessor<SpecificRecord> pages = new ItemProcessor<>(COPY, names, writer, serializer,
                kafka.valueDeserializer(), 1, scan -> false);
        FirstItems first = new FirstItems();
        List<ProducerRecord<byte[], byte[]>> left = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> emitted : rootOutcome.records()) {
            if (rootOutcome.error() == null && emitted.topic().equals(names.entityBatches())) {
                first.written.add(pages.process(record(emitted.topic(), emitted.key(), emitted.value())));
            } else {
                left.add(emitted); // the other items, or the root's dead letter
            }
        }
        first.read.add(rootOutcome.withRecords(left));
        return first;
    }

    /** The workers whose items these are (their NAMEs, in the workers' modules): their metrics count them. */
    private static final String DISCOVERY = "discovery";
    private static final String COPY = "copy";

    /** A record as if fetched: it was never written, so it has no partition nor offset (-1 in a dead letter). */
    private static ConsumerRecord<byte[], byte[]> record(String topic, byte[] key, byte[] value) {
        return new ConsumerRecord<>(topic, -1, -1L, key, value);
    }

    /** What the seed's transaction sends after the scan's first event: the items' outputs, then their events. */
    public void sendTo(KafkaSettings kafka, Consumer<ProducerRecord<byte[], byte[]>> send) {
        PendingCommit done = new PendingCommit();
        read.forEach(done::add);
        written.forEach(done::add);
        done.records(kafka.namespace().scanEvents(), kafka.valueSerializer()).sendTo(record -> {
            send.accept(record);
            return null;
        });
    }

    /** Once the seed committed: the items and rows counted in their workers' metrics (not as their transactions). */
    public void committed() {
        new WorkerMeters(DISCOVERY, ItemKind.PREFIX_QUERY).counted(read);
        new WorkerMeters(COPY, ItemKind.ENTITY_BATCH).counted(written);
    }
}
