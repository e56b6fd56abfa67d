package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.WorkItems;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import io.tablescan.spi.Bound;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The worker loop against Kafka's MockConsumer and MockProducer: what is committed, parked and replayed. */
class WorkerRuntimeTest {
    static final TopicPartition INPUT = new TopicPartition(Namespace.DEFAULT.prefixQueries(), 0);
    final AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();
    final AvroSingleObjectDeserializer deserializer = new AvroSingleObjectDeserializer();
    /** The group's committed offsets, as the runtime reads them when partitions are assigned. */
    final Map<TopicPartition, OffsetAndMetadata> groupOffsets = new HashMap<>();
    final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
        @Override
        public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
            return groupOffsets; // MockConsumer keeps no metadata of its own commits
        }
    };
    final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());

    static ScanSpec spec() {
        return ScanSpec.newBuilder().setScanId("scan-t").setSource(new TableRef("src", "Source"))
                .setDestination(new TableRef("dst", "Dest")).setPageSize(10).setPageBudget(2)
                .setCreatedAtMillis(1L).build();
    }

    /** A handler whose behaviour the test decides. */
    static ItemHandler<PrefixQuery> handler(Function<PrefixQuery, ItemHandler.Result> behaviour) {
        return handlerWithContext((item, context) -> behaviour.apply(item));
    }

    /** A handler whose behaviour, given the item's context too, the test decides. */
    static ItemHandler<PrefixQuery> handlerWithContext(
            BiFunction<PrefixQuery, ItemContext, ItemHandler.Result> behaviour) {
        return new ItemHandler<>() {
            @Override
            public Class<PrefixQuery> type() {
                return PrefixQuery.class;
            }

            @Override
            public Result handle(PrefixQuery item, ItemContext context) {
                return behaviour.apply(item, context);
            }
        };
    }

    WorkerRuntime<PrefixQuery> runtime(ItemHandler<PrefixQuery> handler) {
        return runtime(handler, scanId -> false);
    }

    WorkerRuntime<PrefixQuery> runtime(ItemHandler<PrefixQuery> handler, java.util.function.Predicate<String> cancelled) {
        RuntimeOptions options = RuntimeOptions.of("test", Namespace.DEFAULT, ItemKind.PREFIX_QUERY).withMaxInFlight(4)
                .withItemThreads(ItemThreads.VIRTUAL).withSerdes(serializer, deserializer).withCancelled(cancelled, () -> { });
        return new WorkerRuntime<>(options, handler, consumer, () -> producer);
    }

    /** Feeds the records in one poll, then stops the loop at the next poll. */
    void runWith(WorkerRuntime<PrefixQuery> runtime, byte[]... values) {
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            for (int i = 0; i < values.length; i++) {
                consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, i, ("k" + i).getBytes(), values[i]));
            }
        });
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(runtime::stopSoon);
        runtime.run();
    }

    byte[] root() {
        return serializer.serialize(Namespace.DEFAULT.prefixQueries(), WorkItems.root(spec()));
    }

    List<ProducerRecord<byte[], byte[]>> sentTo(String topic) {
        return producer.history().stream().filter(r -> r.topic().equals(topic)).toList();
    }

    ScanEvent onlyEvent() {
        List<ProducerRecord<byte[], byte[]>> events = sentTo(Namespace.DEFAULT.scanEvents());
        assertThat(events).hasSize(1);
        return (ScanEvent) deserializer.deserialize(Namespace.DEFAULT.scanEvents(), events.get(0).value());
    }

    @Test
    void commitsOutputsEventAndOffsetsInOneTransaction() {
        PartitionQuery child = (PartitionQuery) WorkItems.item(spec(), new PartitionRange("p", Bound.after("r")), 1);
        EntityBatch batch = new EntityBatch("b", spec(), "p", List.of(), List.of(), List.of(), List.of());
        runWith(runtime(handler(item -> new ItemHandler.Result(List.of(child, batch), 7, 0, 2))), root());

        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(sentTo(Namespace.DEFAULT.partitionQueries())).hasSize(1);
        assertThat(sentTo(Namespace.DEFAULT.entityBatches())).singleElement()
                .satisfies(r -> assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("p"));
        ScanEvent event = onlyEvent();
        assertThat(event.getDone().getPrefixQueries()).isEqualTo(1);
        assertThat(event.getEmitted().getPartitionQueries()).isEqualTo(1);
        assertThat(event.getEmitted().getEntityBatches()).isEqualTo(1);
        assertThat(event.getRowsRead()).isEqualTo(7);
        assertThat(producer.consumerGroupOffsetsHistory()).last()
                .satisfies(offsets -> assertThat(offsets.values().iterator().next().get(INPUT).offset()).isEqualTo(1));
    }

    /** A handler that publishes one record to topic "rows" through its item's context, then fails if told to. */
    static ItemHandler<PrefixQuery> publishing(boolean fail) {
        return handlerWithContext((item, context) -> {
            context.publish("rows", "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8),
                    Map.of("h", "x".getBytes(StandardCharsets.UTF_8)));
            if (fail) {
                throw new IllegalStateException("failed after publishing");
            }
            return new ItemHandler.Result(List.of(), 1, 1, 1);
        });
    }

    @Test
    void recordsPublishedForAnItemAreSentInItsTransaction() {
        runWith(runtime(publishing(false)), root());

        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(sentTo("rows")).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo("v".getBytes(StandardCharsets.UTF_8));
            assertThat(DeadLetters.header(r.headers(), ItemContext.SCAN_ID_HEADER)).isEqualTo("scan-t");
            assertThat(DeadLetters.header(r.headers(), "h")).isEqualTo("x");
        });
        assertThat(onlyEvent().getRowsWritten()).isEqualTo(1);
    }

    /**
     * A producer whose sends to topic "refusing" fail as a broker fails a record larger than the topic's
     * max.message.bytes: the record's future fails, and the transaction can then only be aborted.
     */
    final class RefusingProducer extends MockProducer<byte[], byte[]> {
        private final Set<String> refusing;

        RefusingProducer(String... refusing) {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            this.refusing = refusing.length == 0 ? Set.of("refusing") : Set.of(refusing);
        }

        @Override
        public void beginTransaction() {
            commitTransactionException = null;
            super.beginTransaction();
        }

        @Override
        public synchronized java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> send(
                ProducerRecord<byte[], byte[]> record, org.apache.kafka.clients.producer.Callback callback) {
            if (!refusing.contains(record.topic())) {
                return super.send(record, callback);
            }
            RuntimeException refused = new org.apache.kafka.common.errors.RecordTooLargeException(
                    "The request included a message larger than the max message size the server will accept.");
            commitTransactionException = new KafkaException("Cannot execute transactional method because we are in "
                    + "an error state", refused);
            return java.util.concurrent.CompletableFuture.failedFuture(refused);
        }
    }

    @Test
    void anItemWhoseRecordTheBrokerRefusesForGoodIsParkedWithTheReasonAndTheOthersCommit() {
        MockProducer<byte[], byte[]> refusing = new RefusingProducer();
        AtomicInteger calls = new AtomicInteger();
        ItemHandler<PrefixQuery> handler = handlerWithContext((item, context) -> {
            String topic = calls.incrementAndGet() == 1 ? "refusing" : "rows";
            context.publish(topic, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8), Map.of());
            return new ItemHandler.Result(List.of(), 1, 1, 1);
        });
        RuntimeOptions options = RuntimeOptions.of("test", Namespace.DEFAULT, ItemKind.PREFIX_QUERY).withMaxInFlight(4)
                .withItemThreads(ItemThreads.VIRTUAL).withSerdes(serializer, deserializer).withCancelled(id -> false, () -> { });

        runWith(new WorkerRuntime<>(options, handler, consumer, () -> refusing), root(), root());

        assertThat(calls).as("each item handled once, not replayed").hasValue(2);
        List<ProducerRecord<byte[], byte[]>> committed = refusing.history();
        assertThat(committed).filteredOn(r -> r.topic().equals("rows")).hasSize(1);
        assertThat(committed).filteredOn(r -> r.topic().equals(Namespace.DEFAULT.deadLetters())).singleElement()
                .satisfies(letter -> assertThat(DeadLetters.header(letter.headers(), DeadLetters.ERROR_MESSAGE))
                        .contains("topic refusing refused a record of 1 bytes").contains("max.message.bytes"));
        List<ScanEvent> events = committed.stream().filter(r -> r.topic().equals(Namespace.DEFAULT.scanEvents()))
                .map(r -> (ScanEvent) deserializer.deserialize(r.topic(), r.value())).toList();
        assertThat(events.stream().mapToInt(e -> e.getFailed().getPrefixQueries()).sum()).isEqualTo(1);
        assertThat(events.stream().mapToInt(e -> e.getDone().getPrefixQueries()).sum()).isEqualTo(1);
        assertThat(events.stream().mapToLong(ScanEvent::getRowsWritten).sum()).as("the parked item's row not counted")
                .isEqualTo(1);
        assertThat(refusing.consumerGroupOffsetsHistory()).last().satisfies(offsets ->
                assertThat(offsets.values().iterator().next().get(INPUT).offset()).isEqualTo(2));
    }

    /**
     * A dead-letter topic that refuses the dead letter too (made by hand with a smaller max.message.bytes): the item
     * is counted as failed with both reasons, without output, and the others commit; replaying it would be refused
     * for ever and hold every other item.
     */
    @Test
    void anItemWhoseDeadLetterIsRefusedTooIsCountedFailedAndTheOthersCommit() {
        MockProducer<byte[], byte[]> refusing = new RefusingProducer("refusing", Namespace.DEFAULT.deadLetters());
        AtomicInteger calls = new AtomicInteger();
        ItemHandler<PrefixQuery> handler = handlerWithContext((item, context) -> {
            String topic = calls.incrementAndGet() == 1 ? "refusing" : "rows";
            context.publish(topic, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8), Map.of());
            return new ItemHandler.Result(List.of(), 1, 1, 1);
        });
        RuntimeOptions options = RuntimeOptions.of("test", Namespace.DEFAULT, ItemKind.PREFIX_QUERY).withMaxInFlight(4)
                .withItemThreads(ItemThreads.VIRTUAL).withSerdes(serializer, deserializer).withCancelled(id -> false, () -> { });

        runWith(new WorkerRuntime<>(options, handler, consumer, () -> refusing), root(), root());

        assertThat(calls).as("each item handled once, not replayed").hasValue(2);
        List<ProducerRecord<byte[], byte[]>> committed = refusing.history();
        assertThat(committed).filteredOn(r -> r.topic().equals("rows")).hasSize(1);
        List<ScanEvent> events = committed.stream().filter(r -> r.topic().equals(Namespace.DEFAULT.scanEvents()))
                .map(r -> (ScanEvent) deserializer.deserialize(r.topic(), r.value())).toList();
        assertThat(events.stream().mapToInt(e -> e.getFailed().getPrefixQueries()).sum()).isEqualTo(1);
        assertThat(events.stream().mapToInt(e -> e.getDone().getPrefixQueries()).sum()).isEqualTo(1);
        assertThat(events).map(ScanEvent::getFirstError).filteredOn(java.util.Objects::nonNull).singleElement()
                .satisfies(error -> assertThat(error.toString()).contains("topic refusing refused")
                        .contains("not parked, its dead letter refused"));
        assertThat(refusing.consumerGroupOffsetsHistory()).last().satisfies(offsets ->
                assertThat(offsets.values().iterator().next().get(INPUT).offset()).isEqualTo(2));
    }

    @Test
    void aFailedItemsPublishedRecordsAreNotSent() {
        runWith(runtime(publishing(true)), root());

        assertThat(sentTo("rows")).isEmpty();
        assertThat(sentTo(Namespace.DEFAULT.deadLetters())).hasSize(1);
        assertThat(onlyEvent().getFailed().getPrefixQueries()).isEqualTo(1);
    }

    /**
     * A worker stops with six items in hand and four slots, each of whose requests gives up waiting for the rate cap
     * (not sent): none is parked, counted or committed, they are left for a replay, and the stop waits for none of
     * them (not the 30 s a stop gives the work in hand).
     */
    @Test
    void itemsWhoseRequestsWereNotSentAsTheWorkerStopsAreNeitherParkedNorCommitted() {
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicInteger handled = new AtomicInteger();
        WorkerRuntime<PrefixQuery> runtime = runtime(handler(item -> {
            handled.incrementAndGet();
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // wrapped, as a sink may pass it on
            throw new IllegalStateException("write failed", new io.tablescan.rate.WaitStoppedException());
        }));
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            for (int i = 0; i < 6; i++) {
                consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, i, ("k" + i).getBytes(), root()));
            }
        });
        consumer.schedulePollTask(() -> {
            runtime.stopSoon();
            stopped.countDown();
        });

        long start = System.nanoTime();
        runtime.run();

        assertThat((System.nanoTime() - start) / 1_000_000).as("ms to stop").isLessThan(10_000);
        assertThat(handled).as("items that ran").hasValue(6);
        assertThat(sentTo(Namespace.DEFAULT.deadLetters())).as("parked").isEmpty();
        assertThat(sentTo(Namespace.DEFAULT.scanEvents())).as("counted").isEmpty();
        assertThat(producer.consumerGroupOffsetsHistory()).as("offsets committed").isEmpty();
    }

    /**
     * Of two items whose requests give up waiting for the rate as the worker stops, the one that had written already
     * is told apart (its rows are in the destination and in no count: a local copy's Ctrl-C line then says "at
     * least"); the other wrote nothing. Neither is committed.
     */
    @Test
    void anItemLeftUndoneAfterItWroteIsToldApartFromOneThatWroteNothing() {
        CountDownLatch stopped = new CountDownLatch(2);
        WorkerRuntime<PrefixQuery> runtime = runtime(new ItemHandler<>() {
            private final AtomicInteger items = new AtomicInteger();

            @Override
            public Class<PrefixQuery> type() {
                return PrefixQuery.class;
            }

            @Override
            public Result handle(PrefixQuery item, ItemContext context) {
                if (items.getAndIncrement() == 0) {
                    context.writing(); // its first write sent, its second waiting for the cap when the stop comes
                }
                stopped.countDown();
                try {
                    stopped.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new io.tablescan.rate.WaitStoppedException();
            }
        });
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 0, "k0".getBytes(), root()));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 1, "k1".getBytes(), root()));
        });
        consumer.schedulePollTask(runtime::stopSoon);

        runtime.run();

        assertThat(runtime.itemsStoppedAfterWriting()).isEqualTo(1);
        assertThat(producer.consumerGroupOffsetsHistory()).as("offsets committed").isEmpty();
    }

    @Test
    void theHandlerIsClosedWhenTheWorkerStops() {
        AtomicInteger closed = new AtomicInteger();
        ItemHandler<PrefixQuery> closing = new ItemHandler<>() {
            @Override
            public Class<PrefixQuery> type() {
                return PrefixQuery.class;
            }

            @Override
            public Result handle(PrefixQuery item, ItemContext context) {
                return new Result(List.of(), 1, 0, 1);
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };

        runWith(runtime(closing), root());

        assertThat(closed).hasValue(1);
        assertThat(producer.transactionCommitted()).isTrue();
    }

    @Test
    void itemsOfACancelledScanAreSkippedAndCountedAsSkipped() {
        AtomicInteger handled = new AtomicInteger();
        runWith(runtime(handler(item -> {
            handled.incrementAndGet();
            return new ItemHandler.Result(List.of(), 1, 0, 1);
        }), "scan-t"::equals), root(), root());

        assertThat(handled.get()).isZero();
        assertThat(sentTo(Namespace.DEFAULT.partitionQueries())).isEmpty();
        ScanEvent event = onlyEvent();
        assertThat(event.getSkipped().getPrefixQueries()).isEqualTo(2);
        assertThat(event.getDone().getPrefixQueries()).isZero();
        assertThat(producer.transactionCommitted()).as("offsets still move on").isTrue();
    }

    /**
     * An item whose read gave up as its scan was cancelled, having written nothing, is skipped and committed at once,
     * even before this runtime's own follower has seen the cancel (another runtime of the process saw it first): not
     * left undone while the worker runs, which would keep the scan's items open.
     */
    @Test
    void anItemWhoseReadGaveUpAsItsScanWasCancelledIsSkippedAndCommitted() {
        runWith(runtime(handler(item -> {
            throw new IllegalStateException("read failed", new io.tablescan.rate.WaitStoppedException(true));
        })), root());

        assertThat(sentTo(Namespace.DEFAULT.deadLetters())).as("parked").isEmpty();
        ScanEvent event = onlyEvent();
        assertThat(event.getSkipped().getPrefixQueries()).isEqualTo(1);
        assertThat(event.getFailed().getPrefixQueries()).isZero();
        assertThat(producer.transactionCommitted()).as("its offset moves on").isTrue();
    }

    @Test
    void undecodableRecordsAreParkedWithTheirReasonAndNotCounted() {
        runWith(runtime(handler(item -> new ItemHandler.Result(List.of(), 0, 0, 0))),
                "garbage".getBytes(), root());

        ProducerRecord<byte[], byte[]> letter = sentTo(Namespace.DEFAULT.deadLetters()).getFirst();
        assertThat(letter.value()).isEqualTo("garbage".getBytes());
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ORIGINAL_TOPIC)).isEqualTo(Namespace.DEFAULT.prefixQueries());
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ORIGINAL_OFFSET)).isEqualTo("0");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ERROR_MESSAGE)).contains("bad header");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ATTEMPTS)).isEqualTo("1");
        assertThat(onlyEvent().getDone().getPrefixQueries()).as("the valid record still counts").isEqualTo(1);
    }

    @Test
    void permanentFailureIsParkedAndCountedAsFailed() {
        runWith(runtime(handler(item -> {
            throw new TableStoreException("HTTP 403 AuthorizationFailure on table Source", 403, false, null);
        })), root());

        ProducerRecord<byte[], byte[]> letter = sentTo(Namespace.DEFAULT.deadLetters()).getFirst();
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.SCAN_ID)).isEqualTo("scan-t");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ERROR_CLASS)).endsWith("TableStoreException");
        ScanEvent event = onlyEvent();
        assertThat(event.getFailed().getPrefixQueries()).isEqualTo(1);
        assertThat(event.getDone().getPrefixQueries()).isZero();
        assertThat(event.getFirstError()).contains("403");
    }

    @Test
    void aLinkageErrorInAHandlerFailsTheItemNotTheWorker() {
        runWith(runtime(handler(item -> {
            throw new LinkageError("Package versions: jackson-core=2.21.2, jackson-dataformat-xml=unknown");
        })), root());

        assertThat(DeadLetters.header(sentTo(Namespace.DEFAULT.deadLetters()).getFirst().headers(), DeadLetters.ERROR_CLASS))
                .isEqualTo("java.lang.LinkageError");
        assertThat(onlyEvent().getFailed().getPrefixQueries()).isEqualTo(1);
        assertThat(producer.transactionCommitted()).isTrue();
    }

    @Test
    void transientFailuresAreRetriedThenParkedWithTheirAttempts() {
        AtomicInteger calls = new AtomicInteger();
        RetryPolicy fast = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2));
        io.tablescan.spi.TableStore flaky = new io.tablescan.spi.TableStore() {
            @Override
            public io.tablescan.spi.Page query(String t, io.tablescan.spi.ScanQuery q,
                    io.tablescan.spi.QueryOptions o, io.tablescan.spi.Continuation c) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void upsert(String t, String pk, List<io.tablescan.spi.Row> rows) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void createTableIfNotExists(String t) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean tableExists(String table) {
                calls.incrementAndGet();
                throw new TableStoreException("HTTP 503 ServerBusy", 503, true, null);
            }
        };
        RetryingTableStore store = new RetryingTableStore(flaky, fast);
        runWith(runtime(handler(item -> {
            store.tableExists("Source");
            return new ItemHandler.Result(List.of(), 0, 0, 1);
        })), root());

        assertThat(calls.get()).isEqualTo(3);
        ProducerRecord<byte[], byte[]> letter = sentTo(Namespace.DEFAULT.deadLetters()).getFirst();
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ATTEMPTS)).isEqualTo("3");
        assertThat(onlyEvent().getFailed().getPrefixQueries()).isEqualTo(1);
    }

    @Test
    void aFailedCommitIsAbortedAndTheBatchReplayed() {
        List<String> handled = new CopyOnWriteArrayList<>(); // added by the handlers' threads
        producer.commitTransactionException = new KafkaException("broker went away");
        WorkerRuntime<PrefixQuery> runtime = runtime(handler(item -> {
            handled.add(item.getItemId());
            producer.commitTransactionException = handled.size() == 1 ? producer.commitTransactionException : null;
            return new ItemHandler.Result(List.of(), 1, 0, 1);
        }));
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 0, "k".getBytes(), root()));
        });
        List<Long> positions = new ArrayList<>();
        Runnable[] afterAbort = new Runnable[1];
        afterAbort[0] = () -> {
            if (!producer.transactionAborted()) {
                consumer.schedulePollTask(afterAbort[0]); // not yet: poll again
                return;
            }
            // After the abort the runtime must have rewound; a real consumer then fetches the record again.
            positions.add(consumer.position(INPUT));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 0, "k".getBytes(), root()));
            stopWhen(runtime, () -> handled.size() == 2);
        };
        consumer.schedulePollTask(afterAbort[0]);
        runtime.run();

        assertThat(positions).containsExactly(0L);
        assertThat(handled).hasSize(2);
        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(onlyEvent().getRowsRead()).as("only the committed attempt counts").isEqualTo(1);
    }

    @Test
    void aSlowRecordHoldsUpOnlyItselfAndTheOffsetMetadataNamesWhatIsDoneAboveIt() throws Exception {
        CountDownLatch slow = new CountDownLatch(1);
        WorkerRuntime<PrefixQuery> runtime = runtime(handler(item -> {
            if (item.getDepth() == 9) {
                await(slow);
            }
            return new ItemHandler.Result(List.of(), 1, 0, 1);
        }));
        consumer.updateBeginningOffsets(Map.of(INPUT, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 0, "k".getBytes(), item(9)));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 1, "k".getBytes(), item(1)));
            consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, 2, "k".getBytes(), item(1)));
        });
        List<OffsetAndMetadata> whileSlow = new ArrayList<>();
        Runnable[] untilCommitted = new Runnable[1];
        untilCommitted[0] = () -> {
            // The two fast records may finish in different commits: wait for one that holds both.
            OffsetAndMetadata last = producer.consumerGroupOffsetsHistory().isEmpty() ? null
                    : producer.consumerGroupOffsetsHistory().getLast().values().iterator().next().get(INPUT);
            if (last == null || PartitionProgress.decode(last.offset(), last.metadata()).size() < 2) {
                consumer.schedulePollTask(untilCommitted[0]);
                return;
            }
            whileSlow.add(last);
            slow.countDown();
            consumer.schedulePollTask(runtime::stopSoon);
        };
        consumer.schedulePollTask(untilCommitted[0]);
        runtime.run();

        OffsetAndMetadata first = whileSlow.getFirst();
        assertThat(first.offset()).as("the slow record is still owed").isZero();
        assertThat(PartitionProgress.decode(first.offset(), first.metadata())).containsExactly(1L, 2L);
        assertThat(producer.consumerGroupOffsetsHistory().getLast().values().iterator().next().get(INPUT).offset())
                .isEqualTo(3);
        long done = producer.history().stream().filter(r -> r.topic().equals(Namespace.DEFAULT.scanEvents()))
                .map(r -> (ScanEvent) deserializer.deserialize(Namespace.DEFAULT.scanEvents(), r.value()))
                .mapToLong(e -> e.getDone().getPrefixQueries()).sum();
        assertThat(done).isEqualTo(3);
    }

    @Test
    void recordsTheCommittedMetadataNamesAsDoneAreSkippedWhenFetchedAgain() {
        PartitionProgress progress = new PartitionProgress(null);
        for (long offset = 10; offset < 14; offset++) {
            progress.fetched(offset);
        }
        progress.completed(11);
        progress.completed(13);
        OffsetAndMetadata commit = progress.toCommit();
        groupOffsets.put(INPUT, commit);
        List<Integer> handled = new CopyOnWriteArrayList<>(); // two records handled at once
        WorkerRuntime<PrefixQuery> runtime = runtime(handler(item -> {
            handled.add(item.getDepth());
            return new ItemHandler.Result(List.of(), 1, 0, 1);
        }));
        consumer.updateBeginningOffsets(Map.of(INPUT, 10L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(INPUT));
            consumer.seek(INPUT, commit.offset());
            for (int offset = 10; offset < 14; offset++) {
                consumer.addRecord(new ConsumerRecord<>(INPUT.topic(), 0, offset, "k".getBytes(), item(offset)));
            }
        });
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(runtime::stopSoon);
        runtime.run();

        assertThat(commit.offset()).isEqualTo(10);
        assertThat(handled).containsExactlyInAnyOrder(10, 12);
        assertThat(producer.consumerGroupOffsetsHistory().getLast().values().iterator().next().get(INPUT).offset())
                .isEqualTo(14);
    }

    /** A future that says when the runtime first waits on it. */
    static final class WatchedFuture extends java.util.concurrent.CompletableFuture<Void> {
        final CountDownLatch waitedOn = new CountDownLatch(1);

        @Override
        public Void get(long timeout, java.util.concurrent.TimeUnit unit) throws InterruptedException,
                java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
            waitedOn.countDown();
            return super.get(timeout, unit);
        }
    }

    @Test
    void joinsItsGroupOnlyOnceItsTopicIsReady() throws Exception {
        WatchedFuture topics = new WatchedFuture();
        WorkerRuntime<PrefixQuery> runtime = runtime(handler(item -> new ItemHandler.Result(List.of(), 0, 0, 0)))
                .subscribeAfter(topics);
        java.util.concurrent.atomic.AtomicReference<Set<String>> subscribed = new java.util.concurrent.atomic.AtomicReference<>();
        consumer.schedulePollTask(() -> {
            subscribed.set(Set.copyOf(consumer.subscription()));
            runtime.stopSoon();
        });
        Thread loop = Thread.ofPlatform().start(runtime);

        assertThat(topics.waitedOn.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(producer.transactionInitialized()).isTrue(); // its producer is ready meanwhile
        assertThat(consumer.subscription()).isEmpty();
        topics.complete(null);
        loop.join(10_000);
        assertThat(loop.isAlive()).isFalse();
        assertThat(subscribed.get()).containsExactly(INPUT.topic());
    }

    @Test
    void aWorkerStoppedWhileItsTopicIsMadeNeverJoins() throws Exception {
        WatchedFuture topics = new WatchedFuture();
        WorkerRuntime<PrefixQuery> runtime = runtime(handler(item -> new ItemHandler.Result(List.of(), 0, 0, 0)))
                .subscribeAfter(topics);
        Thread loop = Thread.ofPlatform().start(runtime);

        assertThat(topics.waitedOn.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        runtime.stopSoon();
        loop.join(10_000);
        assertThat(loop.isAlive()).isFalse();
        assertThat(consumer.subscription()).isEmpty();
    }

    /** Polls on until the condition holds, then stops the loop. */
    void stopWhen(WorkerRuntime<PrefixQuery> runtime, java.util.function.BooleanSupplier condition) {
        consumer.schedulePollTask(() -> {
            if (condition.getAsBoolean()) {
                runtime.stopSoon();
            } else {
                stopWhen(runtime, condition);
            }
        });
    }

    byte[] item(int depth) {
        PrefixQuery item = WorkItems.root(spec());
        item.setDepth(depth);
        return serializer.serialize(Namespace.DEFAULT.prefixQueries(), item);
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
