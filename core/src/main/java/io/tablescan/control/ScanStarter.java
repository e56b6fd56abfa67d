package io.tablescan.control;

import io.tablescan.items.WorkItems;
import io.tablescan.runtime.FirstItems;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/** Starts a scan: its root item and its first event, in one transaction. */
public final class ScanStarter {
    private ScanStarter() {}

    public static void start(KafkaSettings kafka, ScanSpec spec) {
        start(kafka, spec, null);
    }

    /**
     * As {@link #start(KafkaSettings, ScanSpec)}, with the root item and what followed from it already handled in
     * this process ({@code first}, or null: none): their outcomes are committed in place of the root.
     */
    public static void start(KafkaSettings kafka, ScanSpec spec, FirstItems first) {
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        PrefixQuery root = WorkItems.root(spec);
        try (Producer<byte[], byte[]> producer = kafka.newProducer(kafka.namespace().group("start-" + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            String items = kafka.namespace().prefixQueries();
            String events = kafka.namespace().scanEvents();
            var event = new ScanEventBuilder(spec.getScanId()).started(spec).emitted(ItemKind.PREFIX_QUERY).build();
            producer.send(new ProducerRecord<>(events, spec.getScanId().getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(events, event)));
            if (first == null) {
                producer.send(new ProducerRecord<>(items, ItemKind.key(root), serializer.serialize(items, root)));
            } else {
                first.sendTo(kafka, producer::send);
            }
            producer.commitTransaction();
            if (first != null) {
                first.committed();
            }
            producer.close(Duration.ofSeconds(10));
        }
    }
}
