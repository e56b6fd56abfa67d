package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.PrefixQuery;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The handler's commit point (its sinks' flush): before each transaction; a failure replays its items, and one that
 * keeps failing parks them.
 */
class CommitPointTest {
    final WorkerRuntimeTest kafka = new WorkerRuntimeTest(); // its MockConsumer, MockProducer and helpers
    final List<String> handled = new CopyOnWriteArrayList<>(); // added by the handlers' threads
    final List<String> flushes = new CopyOnWriteArrayList<>();

    /** A handler that reads one row per item; its flush fails the first {@code failures} times. */
    ItemHandler<PrefixQuery> flushing(int failures) {
        AtomicInteger calls = new AtomicInteger();
        return new ItemHandler<>() {
            @Override
            public Class<PrefixQuery> type() {
                return PrefixQuery.class;
            }

            @Override
            public Result handle(PrefixQuery item, ItemContext context) {
                handled.add(item.getItemId());
                return new Result(List.of(), 1, 0, 1);
            }

            @Override
            public void flush() {
                // What the transaction holds must not be sent yet: the rows are made durable first.
                flushes.add("after " + handled.size() + " items, transaction open: "
                        + kafka.producer.transactionInFlight() + ", sent: " + kafka.producer.history().size());
                if (calls.incrementAndGet() <= failures) {
                    throw new IllegalStateException("blob store unavailable");
                }
            }
        };
    }

    @Test
    void theCommitPointComesBeforeTheTransactionThatHoldsTheItems() {
        kafka.runWith(kafka.runtime(flushing(0)), kafka.root());

        assertThat(flushes).containsExactly("after 1 items, transaction open: false, sent: 0");
        assertThat(kafka.producer.transactionCommitted()).isTrue();
        assertThat(kafka.onlyEvent().getRowsRead()).isEqualTo(1);
    }

    @Test
    void aFailedCommitPointCommitsNothingAndTheItemsAreReplayed() {
        WorkerRuntime<PrefixQuery> runtime = kafka.runtime(flushing(1));
        kafka.consumer.updateBeginningOffsets(Map.of(WorkerRuntimeTest.INPUT, 0L));
        kafka.consumer.schedulePollTask(() -> {
            kafka.consumer.rebalance(List.of(WorkerRuntimeTest.INPUT));
            kafka.consumer.addRecord(record());
        });
        List<Long> positions = new CopyOnWriteArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Runnable[] afterFailure = new Runnable[1];
        afterFailure[0] = () -> {
            if (flushes.isEmpty() && System.nanoTime() < deadline) {
                kafka.consumer.schedulePollTask(afterFailure[0]); // not yet: poll again
                return;
            }
            // The runtime must have rewound; a real consumer then fetches the record again.
            positions.add(kafka.consumer.position(WorkerRuntimeTest.INPUT));
            assertThat(kafka.producer.history()).as("nothing sent for the failed commit point").isEmpty();
            kafka.consumer.addRecord(record());
            kafka.stopWhen(runtime, () -> flushes.size() == 2);
        };
        kafka.consumer.schedulePollTask(afterFailure[0]);
        runtime.run();

        assertThat(positions).containsExactly(0L);
        assertThat(handled).as("handled again after the failure").hasSize(2);
        assertThat(kafka.producer.transactionCommitted()).isTrue();
        assertThat(kafka.onlyEvent().getRowsRead()).as("only the committed attempt counts").isEqualTo(1);
    }

    @Test
    void aCommitPointThatKeepsFailingParksTheItemsWithTheReasonInsteadOfReplayingForever() {
        WorkerRuntime<PrefixQuery> runtime = kafka.runtime(flushing(Integer.MAX_VALUE));
        kafka.consumer.updateBeginningOffsets(Map.of(WorkerRuntimeTest.INPUT, 0L));
        kafka.consumer.schedulePollTask(() -> {
            kafka.consumer.rebalance(List.of(WorkerRuntimeTest.INPUT));
            kafka.consumer.addRecord(record());
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int[] seen = {0};
        Runnable[] replay = new Runnable[1];
        replay[0] = () -> {
            if (kafka.producer.transactionCommitted() || System.nanoTime() > deadline) {
                kafka.stopWhen(runtime, () -> true);
                return;
            }
            if (flushes.size() > seen[0] && handled.size() == flushes.size()) {
                seen[0] = flushes.size();
                kafka.consumer.addRecord(record()); // a real consumer fetches the rewound record again
            }
            kafka.consumer.schedulePollTask(replay[0]);
        };
        kafka.consumer.schedulePollTask(replay[0]);
        runtime.run();

        assertThat(flushes).as("replayed, then parked").hasSize(WorkerRuntime.PARK_AFTER_FAILED_FLUSHES);
        assertThat(kafka.producer.transactionCommitted()).isTrue();
        var letters = kafka.sentTo(io.tablescan.runtime.Namespace.DEFAULT.deadLetters());
        assertThat(letters).hasSize(1);
        assertThat(DeadLetters.header(letters.getFirst().headers(), DeadLetters.ERROR_MESSAGE))
                .isEqualTo("blob store unavailable");
        assertThat(kafka.onlyEvent().getRowsRead()).as("no row counted for a parked item").isZero();
        assertThat(kafka.onlyEvent().getFailed().getPrefixQueries()).isEqualTo(1);
    }

    private ConsumerRecord<byte[], byte[]> record() {
        return new ConsumerRecord<>(WorkerRuntimeTest.INPUT.topic(), 0, 0, "k".getBytes(), kafka.root());
    }
}
