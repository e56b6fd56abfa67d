package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.WorkItems;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanEvent;
import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chain gone on with by the thread that read its last link ({@link LocalChains}), against Kafka's MockConsumer and
 * MockProducers that share one log for the input partition: what a read_committed consumer fetches is what the
 * producers committed, at the offsets they were written at. Every item's output must be committed exactly once,
 * whatever fails or moves in between.
 */
class WorkerRuntimeChainTest {
    static final TopicPartition INPUT = WorkerRuntimeTest.INPUT;
    final AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();
    final AvroSingleObjectDeserializer deserializer = new AvroSingleObjectDeserializer();
    /** The group's committed offset, as every new consumer reads it. */
    final Map<TopicPartition, OffsetAndMetadata> groupOffsets = new ConcurrentHashMap<>();
    /** The input partition's log: the next offset, and where each record sent to it was written. */
    final AtomicLong logEnd = new AtomicLong();
    final Map<ProducerRecord<byte[], byte[]>, Long> written = Collections.synchronizedMap(new IdentityHashMap<>());
    final List<MockProducer<byte[], byte[]>> producers = new CopyOnWriteArrayList<>();
    /** How long a run may wait for its condition; what it saw when it gave up. */
    static final Duration DEADLINE = Duration.ofSeconds(30);
    final List<String> timedOut = new CopyOnWriteArrayList<>();
    /** Each item handled: its depth and its thread, in order. */
    final List<String> handled = new CopyOnWriteArrayList<>();

    /** A producer writing to the shared log; its history is what it committed. */
    MockProducer<byte[], byte[]> producer() {
        return producer(() -> { });
    }

    /** The same, running {@code beforeCommit} before each commit of a transaction that wrote to the input. */
    MockProducer<byte[], byte[]> producer(Runnable beforeCommit) {
        AtomicBoolean toInput = new AtomicBoolean();
        MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer()) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
                Future<RecordMetadata> sent = super.send(record, callback);
                if (!record.topic().equals(INPUT.topic())) {
                    return sent;
                }
                toInput.set(true);
                long offset = logEnd.getAndIncrement();
                written.put(record, offset);
                return CompletableFuture.completedFuture(new RecordMetadata(INPUT, offset, 0, 0L, 1, 1));
            }

            @Override
            public void commitTransaction() {
                if (toInput.getAndSet(false)) {
                    beforeCommit.run(); // outside the producer's lock, as a real commit's wait for the broker
                }
                super.commitTransaction();
            }
        };
        producers.add(producer);
        return producer;
    }

    MockConsumer<byte[], byte[]> consumer() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
            @Override
            public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
                return groupOffsets;
            }
        };
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        return consumer;
    }

    /** Items of a chain: each up to depth {@code last} emits its rows' batch and its continuation. */
    ItemHandler<PrefixQuery> chain(int last, Consumer<PrefixQuery> during) {
        return new ItemHandler<>() {
            @Override
            public Class<PrefixQuery> type() {
                return PrefixQuery.class;
            }

            @Override
            public boolean continuesChains() {
                return true;
            }

            @Override
            public Result handle(PrefixQuery item, ItemContext context) {
                handled.add(item.getDepth() + " " + Thread.currentThread().getName());
                during.accept(item);
                String id = item.getItemId() + "-" + item.getDepth();
                EntityBatch rows = new EntityBatch(id, item.getSpec(), id, List.of(), List.of(), List.of(), List.of()); // its key names it
                if (item.getDepth() >= last) {
                    return new Result(List.of(rows), 1, 0, 1);
                }
                PrefixQuery next = WorkItems.root(item.getSpec());
                next.setItemId(item.getItemId());
                next.setDepth(item.getDepth() + 1);
                return new Result(List.of(rows, next), 1, 0, 1);
            }
        };
    }

    WorkerRuntime<PrefixQuery> runtime(ItemHandler<PrefixQuery> handler, MockConsumer<byte[], byte[]> consumer,
            MockProducer<byte[], byte[]> producer) {
        RuntimeOptions options = RuntimeOptions.of("test", Namespace.DEFAULT, ItemKind.PREFIX_QUERY).withMaxInFlight(4)
                .withItemThreads(ItemThreads.PLATFORM).withSerdes(serializer, deserializer);
        return new WorkerRuntime<>(options, handler, consumer, () -> producer);
    }

    /** Writes a chain's first item to the log, committed. */
    void seed(String itemId, int depth) {
        PrefixQuery item = WorkItems.root(WorkerRuntimeTest.spec());
        item.setItemId(itemId);
        item.setDepth(depth);
        producer().send(new ProducerRecord<>(INPUT.topic(), 0, itemId.getBytes(), serializer.serialize(INPUT.topic(), item)));
    }

    /** The committed records of the input partition, by offset. */
    List<ConsumerRecord<byte[], byte[]>> log() {
        List<ConsumerRecord<byte[], byte[]>> log = new ArrayList<>();
        for (MockProducer<byte[], byte[]> producer : producers) {
            for (ProducerRecord<byte[], byte[]> record : producer.history()) {
                if (record.topic().equals(INPUT.topic())) {
                    log.add(new ConsumerRecord<>(INPUT.topic(), 0, written.get(record), record.key(), record.value()));
                }
            }
        }
        log.sort(Comparator.comparingLong(ConsumerRecord::offset));
        return log;
    }

    /**
     * Runs {@code runtime} as the partition's owner: each poll fetches what is committed from the consumer's
     * position on (after a seek to the group's offset), until {@code until} holds.
     */
    void run(WorkerRuntime<PrefixQuery> runtime, MockConsumer<byte[], byte[]> consumer, BooleanSupplier until) {
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            OffsetAndMetadata committed = groupOffsets.get(INPUT);
            consumer.seek(INPUT, committed == null ? 0 : committed.offset());
        });
        fetchUntil(runtime, consumer, until);
        runtime.run();
        noRunGaveUp();
    }

    /** Polls, each fetching what was committed since, until {@code until} holds or a deadline passes. */
    void fetchUntil(WorkerRuntime<PrefixQuery> runtime, MockConsumer<byte[], byte[]> consumer, BooleanSupplier until) {
        fetchUntil(runtime, consumer, until, System.nanoTime() + DEADLINE.toNanos());
    }

    private void fetchUntil(WorkerRuntime<PrefixQuery> runtime, MockConsumer<byte[], byte[]> consumer,
            BooleanSupplier until, long deadline) {
        consumer.schedulePollTask(() -> {
            if (consumer.assignment().contains(INPUT)) {
                long position = consumer.position(INPUT);
                log().stream().filter(r -> r.offset() >= position).forEach(consumer::addRecord);
            }
            if (until.getAsBoolean()) {
                runtime.stopSoon();
            } else if (System.nanoTime() - deadline > 0) {
                timedOut.add("waited " + DEADLINE + "; handled " + handled + ", log " + log().size()
                        + ", group " + groupOffsets + ", log end " + logEnd + ", commits "
                        + producers.stream().map(p -> p.consumerGroupOffsetsHistory().toString()).toList());
                runtime.stopSoon();
            } else {
                fetchUntil(runtime, consumer, until, deadline);
            }
        });
    }

    /** Whether {@code producer} committed the input partition's whole log as done. */
    BooleanSupplier allDone(MockProducer<byte[], byte[]> producer) {
        return () -> {
            OffsetAndMetadata last = lastCommit(producer);
            return last != null && last.offset() == logEnd.get() && last.metadata().isEmpty();
        };
    }

    static OffsetAndMetadata lastCommit(MockProducer<byte[], byte[]> producer) {
        List<Map<String, Map<TopicPartition, OffsetAndMetadata>>> history = producer.consumerGroupOffsetsHistory();
        return history.isEmpty() ? null : history.getLast().values().iterator().next().get(INPUT);
    }

    /** The batches committed (as parts of entity pages), by the id of the item that emitted them. */
    List<String> committedBatches() {
        List<String> ids = new ArrayList<>();
        for (MockProducer<byte[], byte[]> producer : producers) {
            producer.history().stream().filter(r -> r.topic().equals(Namespace.DEFAULT.entityBatches()))
                    .flatMap(r -> ((EntityPage) deserializer.deserialize(r.topic(), r.value())).getParts().stream())
                    .map(part -> part.getPartitionKey().toString())
                    .forEach(ids::add);
        }
        return ids;
    }

    long committedDone() {
        long done = 0;
        for (MockProducer<byte[], byte[]> producer : producers) {
            done += producer.history().stream().filter(r -> r.topic().equals(Namespace.DEFAULT.scanEvents()))
                    .map(r -> (ScanEvent) deserializer.deserialize(r.topic(), r.value()))
                    .mapToLong(e -> e.getDone().getPrefixQueries()).sum();
        }
        return done;
    }

    @AfterEach
    void noRunGaveUp() {
        assertThat(timedOut).as("a run's condition never held").isEmpty();
    }

    List<String> depthsHandled() {
        return handled.stream().map(h -> h.split(" ")[0]).toList();
    }

    @Test
    void aChainGoesOnInTheThreadThatReadItsLastLinkAndItsLinksAreSkippedWhenFetched() {
        seed("c", 0);
        MockConsumer<byte[], byte[]> consumer = consumer();
        MockProducer<byte[], byte[]> producer = producer();
        run(runtime(chain(3, item -> { }), consumer, producer), consumer, allDone(producer));

        assertThat(depthsHandled()).containsExactly("0", "1", "2", "3");
        assertThat(handled.stream().map(h -> h.split(" ")[1]).distinct()).as("one thread").hasSize(1);
        assertThat(committedBatches()).containsExactlyInAnyOrder("c-0", "c-1", "c-2", "c-3");
        assertThat(committedDone()).isEqualTo(4);
        assertThat(producer.history().stream().filter(r -> r.topic().equals(INPUT.topic())))
                .as("each continuation written to the partition its chain was read from").hasSize(3)
                .allSatisfy(r -> assertThat(r.partition()).isEqualTo(INPUT.partition()));
        assertThat(log()).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void theNextLinkIsReadWhileTheTransactionThatWritesItCommits() throws InterruptedException {
        seed("c", 0);
        CountDownLatch nextRead = new CountDownLatch(1);
        CountDownLatch commitWaited = new CountDownLatch(1);
        MockConsumer<byte[], byte[]> consumer = consumer();
        MockProducer<byte[], byte[]> producer = producer(() -> {
            try { // the first commit that writes a link waits until that link is being read, or gives up
                if (commitWaited.getCount() > 0 && nextRead.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                    commitWaited.countDown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        run(runtime(chain(2, item -> {
            if (item.getDepth() == 1) {
                nextRead.countDown();
            }
        }), consumer, producer), consumer, allDone(producer));

        assertThat(commitWaited.getCount()).as("depth 1 was read before the commit that wrote it returned").isZero();
        assertThat(depthsHandled()).containsExactly("0", "1", "2");
        assertThat(committedBatches()).containsExactlyInAnyOrder("c-0", "c-1", "c-2");
        assertThat(committedDone()).isEqualTo(3);
    }

    @Test
    void aReplaySkipsALinkFinishedLocallyBeforeItWasFetched() {
        CountDownLatch slow = new CountDownLatch(1);
        seed("slow", 9);
        seed("c", 0);
        MockConsumer<byte[], byte[]> consumer = consumer();
        List<OffsetAndMetadata> whileSlow = new CopyOnWriteArrayList<>();
        MockProducer<byte[], byte[]> first = producer();
        WorkerRuntime<PrefixQuery> runtime = runtime(chain(1, item -> {
            if (item.getDepth() == 9) {
                WorkerRuntimeTest.await(slow);
            }
        }), consumer, first);
        run(runtime, consumer, () -> {
            OffsetAndMetadata last = lastCommit(first);
            if (whileSlow.isEmpty() && last != null
                    && PartitionProgress.decode(last.offset(), last.metadata()).contains(2L)) {
                whileSlow.add(last);
                slow.countDown();
            }
            return !whileSlow.isEmpty() && allDone(first).getAsBoolean();
        });
        OffsetAndMetadata crashedAt = whileSlow.getFirst();
        assertThat(crashedAt.offset()).as("the slow record is owed").isZero();
        assertThat(PartitionProgress.decode(crashedAt.offset(), crashedAt.metadata())).containsExactly(1L, 2L);

        // Another owner starts from that commit, as after a crash: only the slow record is processed again.
        groupOffsets.put(INPUT, crashedAt);
        handled.clear();
        MockConsumer<byte[], byte[]> next = consumer();
        MockProducer<byte[], byte[]> second = producer();
        run(runtime(chain(1, item -> { }), next, second), next, allDone(second));

        assertThat(depthsHandled()).containsExactly("9");
    }

    @Test
    void aCrashBetweenTheLinksSendAndItsCommitLeavesTheChainToTheNextOwnerOnce() {
        seed("c", 0);
        MockConsumer<byte[], byte[]> consumer = consumer();
        MockProducer<byte[], byte[]> failing = producer();
        failing.commitTransactionException = new KafkaException("broker went away"); // every commit fails
        WorkerRuntime<PrefixQuery> runtime = runtime(chain(2, item -> { }), consumer, failing);
        run(runtime, consumer, failing::transactionAborted);

        assertThat(depthsHandled()).as("the link's transaction never committed: read ahead at most, not gone on with")
                .contains("0").doesNotContain("2");
        assertThat(failing.history()).as("nothing of it, nor of what was read ahead, committed").isEmpty();

        MockConsumer<byte[], byte[]> next = consumer();
        MockProducer<byte[], byte[]> second = producer();
        run(runtime(chain(2, item -> { }), next, second), next, allDone(second));

        assertThat(committedBatches()).containsExactlyInAnyOrder("c-0", "c-1", "c-2");
        assertThat(committedDone()).isEqualTo(3);
    }

    @Test
    void aPartitionRevokedMidChainLeavesTheLinkInHandToItsNewOwnerOnce() {
        seed("c", 0);
        MockConsumer<byte[], byte[]> consumer = consumer();
        CountDownLatch linkStarted = new CountDownLatch(1);
        CountDownLatch revoked = new CountDownLatch(1);
        MockProducer<byte[], byte[]> first = producer();
        WorkerRuntime<PrefixQuery> runtime = runtime(chain(2, item -> {
            if (item.getDepth() == 1) {
                linkStarted.countDown();
                WorkerRuntimeTest.await(revoked);
            }
        }), consumer, first);
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(INPUT)));
        fetchUntil(runtime, consumer, () -> {
            // The link is read while its transaction commits: the partition moves once both happened.
            if (linkStarted.getCount() == 0 && lastCommit(first) != null && revoked.getCount() > 0) {
                consumer.rebalance(List.of()); // the partition moves while its link is being read
                revoked.countDown();
            }
            return revoked.getCount() == 0 && handled.size() == 2;
        });
        runtime.run();
        noRunGaveUp();

        assertThat(depthsHandled()).containsExactly("0", "1");
        assertThat(committedBatches()).as("the link's rows are not committed by the old owner").containsExactly("c-0");
        OffsetAndMetadata left = lastCommit(first);
        assertThat(left.offset()).as("the link is owed").isEqualTo(1);
        assertThat(left.metadata()).isEmpty();

        groupOffsets.put(INPUT, left);
        handled.clear();
        MockConsumer<byte[], byte[]> next = consumer();
        MockProducer<byte[], byte[]> second = producer();
        run(runtime(chain(2, item -> { }), next, second), next, allDone(second));

        assertThat(depthsHandled()).containsExactly("1", "2");
        assertThat(committedBatches()).containsExactlyInAnyOrder("c-0", "c-1", "c-2");
        assertThat(committedDone()).isEqualTo(3);
    }
}
