package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.WorkItems;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.SinkRef;
import io.tablescan.spi.Bound;
import io.tablescan.spi.PartitionRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** A local scan's first items, handled before its broker is up: what the seed then commits for them. */
class FirstItemsTest {
    final KafkaSettings kafka = KafkaSettings.inProcess("127.0.0.1:0"); // names and serializers only
    final Namespace names = kafka.namespace();
    final ScanSpec spec = WorkerRuntimeTest.spec();
    final List<SpecificRecord> written = new CopyOnWriteArrayList<>();

    /** A handler of {@code type} whose behaviour the test decides. */
    static <T extends SpecificRecord> ItemHandler<T> handler(Class<T> type, Function<T, ItemHandler.Result> behaviour) {
        return new ItemHandler<>() {
            @Override
            public Class<T> type() {
                return type;
            }

            @Override
            public Result handle(T item, ItemContext context) {
                return behaviour.apply(item);
            }
        };
    }

    /** The copy worker's part: what it was given to write is kept in {@link #written}. */
    ItemHandler<SpecificRecord> writer(Function<SpecificRecord, ItemHandler.Result> behaviour) {
        return handler(SpecificRecord.class, item -> {
            written.add(item);
            return behaviour.apply(item);
        });
    }

    ItemHandler<PartitionQuery> partitions(Function<PartitionQuery, ItemHandler.Result> behaviour) {
        return handler(PartitionQuery.class, behaviour);
    }

    ItemHandler.Result rootResult() {
        PartitionQuery child = (PartitionQuery) WorkItems.item(spec, new PartitionRange("p", Bound.after("r")), 1);
        EntityBatch batch = new EntityBatch("b", spec, "q", List.of(new Entity("r", List.of(), null)), List.of(),
                List.of(), List.of());
        return new ItemHandler.Result(List.of(child, batch), 7, 0, 2);
    }

    List<ProducerRecord<byte[], byte[]>> seeded(FirstItems first) {
        List<ProducerRecord<byte[], byte[]>> sent = new ArrayList<>();
        first.sendTo(kafka, sent::add);
        return sent;
    }

    List<ProducerRecord<byte[], byte[]>> to(List<ProducerRecord<byte[], byte[]>> sent, String topic) {
        return sent.stream().filter(r -> r.topic().equals(topic)).toList();
    }

    ScanEvent event(List<ProducerRecord<byte[], byte[]>> sent) {
        List<ProducerRecord<byte[], byte[]>> events = to(sent, names.scanEvents());
        assertThat(events).hasSize(1);
        return (ScanEvent) kafka.valueDeserializer().deserialize(names.scanEvents(), events.getFirst().value());
    }

    @Test
    void everyItemThatFollowsFromTheRootIsHandledHereWhileAllowed() {
        EntityBatch more = new EntityBatch("c", spec, "p", List.of(new Entity("s", List.of(), null)), List.of(),
                List.of(), List.of());
        FirstItems first = FirstItems.handle(kafka, spec, WorkerRuntimeTest.handler(item -> rootResult()),
                partitions(item -> new ItemHandler.Result(List.of(more), 4, 0, 1)),
                writer(item -> new ItemHandler.Result(List.of(), 0, 3, 1)), () -> true);

        assertThat(written).hasSize(2).allSatisfy(item -> assertThat(item).isInstanceOf(EntityPage.class));
        assertThat(first.all()).isTrue();
        List<ProducerRecord<byte[], byte[]>> sent = seeded(first);
        assertThat(to(sent, names.prefixQueries())).isEmpty(); // the root itself was handled here
        assertThat(to(sent, names.partitionQueries())).isEmpty();
        assertThat(to(sent, names.entityBatches())).isEmpty(); // written here: no worker gets them
        ScanEvent event = event(sent);
        assertThat(event.getDone().getPrefixQueries()).isEqualTo(1);
        assertThat(event.getDone().getPartitionQueries()).isEqualTo(1);
        assertThat(event.getDone().getEntityBatches()).isEqualTo(2);
        assertThat(event.getEmitted().getPartitionQueries()).isEqualTo(1);
        assertThat(event.getEmitted().getEntityBatches()).isEqualTo(2);
        assertThat(event.getFailed().getEntityBatches()).isZero();
        assertThat(event.getRowsRead()).isEqualTo(11);
        assertThat(event.getRowsWritten()).isEqualTo(6);
        assertThat(event.getWriteRequests()).isEqualTo(2);
    }

    @Test
    void theItemsNotHandledOnceNoMoreIsAllowedAreSeededForTheWorkers() {
        FirstItems first = FirstItems.handle(kafka, spec, WorkerRuntimeTest.handler(item -> rootResult()),
                partitions(item -> {
                    throw new AssertionError("not allowed");
                }), writer(item -> new ItemHandler.Result(List.of(), 0, 3, 1)), () -> false);

        assertThat(written).isEmpty();
        assertThat(first.all()).isFalse();
        List<ProducerRecord<byte[], byte[]>> sent = seeded(first);
        assertThat(to(sent, names.prefixQueries())).isEmpty();
        assertThat(to(sent, names.partitionQueries())).hasSize(1);
        assertThat(to(sent, names.entityBatches())).singleElement().satisfies(page -> assertThat(kafka
                .valueDeserializer().deserialize(names.entityBatches(), page.value())).isInstanceOf(EntityPage.class));
        ScanEvent event = event(sent);
        assertThat(event.getDone().getPrefixQueries()).isEqualTo(1);
        assertThat(event.getDone().getEntityBatches()).isZero();
        assertThat(event.getEmitted().getPartitionQueries()).isEqualTo(1);
        assertThat(event.getEmitted().getEntityBatches()).isEqualTo(1);
    }

    @Test
    void pagesAreWrittenBeforeTheNextQueryIsRead() {
        List<String> order = new CopyOnWriteArrayList<>();
        FirstItems.handle(kafka, spec, WorkerRuntimeTest.handler(item -> rootResult()), partitions(item -> {
            order.add("query");
            return new ItemHandler.Result(List.of(), 0, 0, 0);
        }), writer(item -> {
            order.add("page");
            return new ItemHandler.Result(List.of(), 0, 3, 1);
        }), () -> true);

        assertThat(order).containsExactly("page", "query");
    }

    @Test
    void aPageThatFailsIsParkedWithItsReasonAndCountedFailed() {
        FirstItems first = FirstItems.handle(kafka, spec, WorkerRuntimeTest.handler(item -> rootResult()),
                partitions(item -> new ItemHandler.Result(List.of(), 0, 0, 0)), writer(item -> {
                    throw new IllegalStateException("refused");
                }), () -> true);

        List<ProducerRecord<byte[], byte[]>> sent = seeded(first);
        assertThat(to(sent, names.deadLetters())).singleElement().satisfies(letter -> {
            assertThat(header(letter, DeadLetters.ORIGINAL_TOPIC)).isEqualTo(names.entityBatches());
            assertThat(header(letter, DeadLetters.ERROR_MESSAGE)).isEqualTo("refused");
            assertThat(kafka.valueDeserializer().deserialize(names.entityBatches(), letter.value()))
                    .isInstanceOf(EntityPage.class); // the page itself, for `retry` to send again
        });
        ScanEvent event = event(sent);
        assertThat(event.getFailed().getEntityBatches()).isEqualTo(1);
        assertThat(event.getDone().getEntityBatches()).isZero();
        assertThat(event.getRowsWritten()).isZero();
    }

    @Test
    void aRootThatFailsIsParkedAndNothingIsWritten() {
        FirstItems first = FirstItems.handle(kafka, spec, WorkerRuntimeTest.handler(item -> {
            throw new IllegalStateException("unreadable");
        }), partitions(item -> new ItemHandler.Result(List.of(), 0, 0, 0)),
                writer(item -> new ItemHandler.Result(List.of(), 0, 3, 1)), () -> true);

        assertThat(written).isEmpty();
        List<ProducerRecord<byte[], byte[]>> sent = seeded(first);
        assertThat(to(sent, names.deadLetters())).singleElement().satisfies(letter -> assertThat(
                kafka.valueDeserializer().deserialize(names.prefixQueries(), letter.value())).isInstanceOf(PrefixQuery.class));
        assertThat(event(sent).getFailed().getPrefixQueries()).isEqualTo(1);
    }

    @Test
    void onlyScansWhoseFirstItemsNeedNoKafkaAreHandledSo() {
        assertThat(FirstItems.possible(spec)).isTrue(); // a table sink
        assertThat(FirstItems.possible(ScanSpec.newBuilder(spec).setDestination(null).build())).isTrue(); // a count
        assertThat(FirstItems.possible(ScanSpec.newBuilder(spec).setLimits(Map.of("write", 100L)).build())).isFalse();
        assertThat(FirstItems.possible(ScanSpec.newBuilder(spec)
                .setSink(new SinkRef("topic", null, "rows", Map.of())).build())).isFalse();
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
