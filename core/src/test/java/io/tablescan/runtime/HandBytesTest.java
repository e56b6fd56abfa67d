package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.WorkItems;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The worker's hand is bounded by the bytes of its records, not only by their count. */
class HandBytesTest {
    static final TopicPartition INPUT = WorkerRuntimeTest.INPUT;
    /** Four fifths of the hand's bound: three such records are taken at once, not four. */
    static final int HEAVY = (int) (WorkerRuntime.handBytes(8) * 4 / 5);

    final AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();
    final Map<TopicPartition, OffsetAndMetadata> groupOffsets = new HashMap<>();
    final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
        @Override
        public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
            return groupOffsets;
        }
    };
    final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());

    /** A record that says it weighed {@link #HEAVY} bytes on the wire (what the runtime counts). */
    ConsumerRecord<byte[], byte[]> heavy(long offset) {
        byte[] value = serializer.serialize(INPUT.topic(), WorkItems.root(WorkerRuntimeTest.spec()));
        return new ConsumerRecord<>(INPUT.topic(), 0, offset, 0L, TimestampType.CREATE_TIME, 2, HEAVY,
                ("k" + offset).getBytes(), value, new RecordHeaders(), Optional.empty());
    }

    @Test
    void recordsPastTheBytesBoundWaitAndAreFetchedAgainThenEachIsDoneOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Long> done = Collections.synchronizedList(new ArrayList<>());
        ItemHandler<PrefixQuery> handler = WorkerRuntimeTest.handlerWithContext((item, context) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                running.decrementAndGet();
            }
            done.add(1L);
            return new ItemHandler.Result(List.of(), 1, 0, 1);
        });
        RuntimeOptions options = RuntimeOptions.of("test", Namespace.DEFAULT, ItemKind.PREFIX_QUERY).withMaxInFlight(8)
                .withSerdes(serializer, new AvroSingleObjectDeserializer());
        WorkerRuntime<PrefixQuery> runtime = new WorkerRuntime<>(options, handler, consumer, () -> producer);
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            for (long offset = 0; offset < 5; offset++) {
                consumer.addRecord(heavy(offset));
            }
        });
        Thread releaser = Thread.ofPlatform().start(() -> {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            // Three records in hand, and the consumer sent back to the fourth: the hand is full.
            while (!(running.get() == 3 && position() == 3) && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // a condition polled, with a deadline
            }
            release.countDown();
        });
        consumer.schedulePollTask(() -> { // a real consumer fetches them again from the position; the mock forgets
            consumer.addRecord(heavy(3));
            consumer.addRecord(heavy(4));
        });
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(runtime::stopSoon);

        runtime.run();
        releaser.join();

        assertThat(most.get()).as("at most three such records in hand at once").isEqualTo(3);
        assertThat(done).hasSize(5);
        assertThat(producer.consumerGroupOffsetsHistory()).last()
                .satisfies(offsets -> assertThat(offsets.values().iterator().next().get(INPUT).offset()).isEqualTo(5));
    }

    private long position() {
        synchronized (consumer) {
            return consumer.assignment().contains(INPUT) ? consumer.position(INPUT) : -1;
        }
    }

    @Test
    void theBoundGrowsWithTheSlotsFromAFloor() {
        assertThat(WorkerRuntime.handBytes(8)).isEqualTo(WorkerRuntime.MIN_HAND_BYTES);
        assertThat(WorkerRuntime.handBytes(2_048)).isEqualTo(16L * 1024 * 1024);
    }
}
