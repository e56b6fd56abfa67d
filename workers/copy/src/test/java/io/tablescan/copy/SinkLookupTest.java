package io.tablescan.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ItemThreads;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.RuntimeOptions;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkRef;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.InMemoryTableStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A scan naming a sink type this worker lacks: a permanent failure with a clear message, parked, counted. */
class SinkLookupTest {
    static final ScanSpec NOSUCH = ScanSpec.newBuilder(EntityBatchHandlerTest.SPEC).setDestination(null)
            .setSink(SinkRefs.toWire(new SinkRef("nosuch", "dst", "Dest", Map.of()))).build();

    final InMemoryTableStore destinationAccount = new InMemoryTableStore();
    final WorkerSettings settings = new WorkerSettings(KafkaSettings.of("unused:9092"),
            new Accounts(name -> null).register("dst", destinationAccount), 4, EntityBatchHandlerTest.NO_WAIT, 1,
            Optional.empty());

    @Test
    void anUnknownSinkTypeFailsPermanentlyNamingTheKnownTypes() {
        EntityBatch batch = EntityBatchHandlerTest.batch(NOSUCH, EntityBatchHandlerTest.rows("p", 3));

        assertThatThrownBy(() -> new EntityBatchHandler(settings).handle(batch, new ItemContext(batch.getSpec())))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageStartingWith("unknown sink type 'nosuch': this worker has sinks of type ")
                .hasMessageContaining("table");
        assertThat(destinationAccount.requests()).isZero();
    }

    @Test
    void aBatchForAnUnknownSinkTypeIsParkedAndCountedAsFailed() {
        AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();
        AvroSingleObjectDeserializer deserializer = new AvroSingleObjectDeserializer();
        TopicPartition input = new TopicPartition(Namespace.DEFAULT.entityBatches(), 0);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
            @Override
            public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
                return Map.of(); // MockConsumer keeps no metadata of its own commits
            }
        };
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        RuntimeOptions options = RuntimeOptions.of(CopyWorker.NAME, Namespace.DEFAULT, ItemKind.ENTITY_BATCH)
                .withMaxInFlight(4).withItemThreads(ItemThreads.VIRTUAL).withSerdes(serializer, deserializer)
                .withCancelled(scanId -> false, () -> { });
        WorkerRuntime<EntityBatch> runtime =
                new WorkerRuntime<>(options, new EntityBatchHandler(settings), consumer, () -> producer);
        byte[] value = serializer.serialize(Namespace.DEFAULT.entityBatches(),
                EntityBatchHandlerTest.batch(NOSUCH, EntityBatchHandlerTest.rows("p", 3)));
        consumer.updateBeginningOffsets(Map.of(input, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(input));
            consumer.addRecord(new ConsumerRecord<>(input.topic(), 0, 0, "p".getBytes(), value));
        });
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(runtime::stopSoon);

        runtime.run();

        List<ProducerRecord<byte[], byte[]>> letters =
                producer.history().stream().filter(r -> r.topic().equals(Namespace.DEFAULT.deadLetters())).toList();
        assertThat(letters).singleElement().satisfies(letter -> {
            assertThat(letter.value()).isEqualTo(value);
            assertThat(DeadLetters.header(letter.headers(), DeadLetters.ERROR_MESSAGE))
                    .startsWith("unknown sink type 'nosuch'");
            assertThat(DeadLetters.header(letter.headers(), DeadLetters.ATTEMPTS)).isEqualTo("1");
            assertThat(DeadLetters.header(letter.headers(), DeadLetters.SCAN_ID)).isEqualTo("scan-c");
        });
        ScanEvent event = producer.history().stream().filter(r -> r.topic().equals(Namespace.DEFAULT.scanEvents()))
                .map(r -> (ScanEvent) deserializer.deserialize(Namespace.DEFAULT.scanEvents(), r.value())).findFirst().orElseThrow();
        assertThat(event.getFailed().getEntityBatches()).isEqualTo(1);
        assertThat(event.getRowsWritten()).isZero();
        assertThat(event.getFirstError()).contains("unknown sink type 'nosuch'");
        assertThat(producer.transactionCommitted()).isTrue();
    }
}
