package io.tablescan.runner;

import io.tablescan.runtime.KafkaSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Watches a resumed local job's embedded broker for a transaction that Kafka will never end: one left open on a
 * partition by the killed run while the transaction coordinator holds its producer as completed (seen after a
 * SIGKILL in the middle of a commit: the partition's marker missing). Its partition's readers would wait for ever;
 * found twice, {@link #found()} says so and what to do, and the command ends with that line instead of a hang.
 */
final class StuckTransactions implements AutoCloseable {
    /** The first look comes once the killed run's own transactions have timed out and been aborted. */
    static final Duration FIRST = Duration.ofSeconds(60);
    static final Duration EVERY = Duration.ofSeconds(15);
    private static final Set<TransactionState> ENDED =
            Set.of(TransactionState.COMPLETE_COMMIT, TransactionState.COMPLETE_ABORT, TransactionState.EMPTY);

    /** A partition held back from {@code offset} by producer {@code producerId}'s transaction, ended by its coordinator. */
    record Stuck(TopicPartition partition, long producerId, long offset) {}

    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile String found;

    private StuckTransactions() {}

    static StuckTransactions watch(KafkaSettings kafka) {
        StuckTransactions watch = new StuckTransactions();
        Thread.ofVirtual().name("stuck-transactions").start(() -> watch.run(kafka));
        return watch;
    }

    /** The line for the user once a stuck transaction was found, else null. */
    String found() {
        return found;
    }

    private void run(KafkaSettings kafka) {
        List<Stuck> before = List.of();
        try (Admin admin = kafka.newAdmin()) {
            for (Duration wait = FIRST; !closed.await(wait.toMillis(), TimeUnit.MILLISECONDS); wait = EVERY) {
                List<Stuck> now = find(admin);
                List<Stuck> still = now.stream().filter(before::contains).toList();
                if (!still.isEmpty()) {
                    found = "the embedded broker holds a transaction of the killed run that Kafka will not end ("
                            + still.getFirst().partition() + "); run the same command with --restart to start the job anew";
                    return;
                }
                before = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // a look that fails finds nothing: the run goes on as without this watch
        }
    }

    /** The partitions held back now by a transaction whose coordinator has ended it. */
    static List<Stuck> find(Admin admin) {
        try {
            Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
            List<TopicPartition> partitions = new ArrayList<>();
            admin.describeTopics(topics).allTopicNames().get().values().forEach(topic -> topic.partitions()
                    .forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition()))));
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            var ends = admin.listOffsets(latest).all().get();
            var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
            List<TopicPartition> behind = partitions.stream()
                    .filter(tp -> stable.get(tp).offset() < ends.get(tp).offset()).toList();
            if (behind.isEmpty()) {
                return List.of();
            }
            Map<TopicPartition, List<ProducerState>> open = new HashMap<>();
            admin.describeProducers(behind).all().get().forEach((tp, producers) -> open.put(tp,
                    producers.activeProducers().stream()
                            .filter(p -> p.currentTransactionStartOffset().isPresent()).toList()));
            Map<Long, TransactionState> states = new HashMap<>();
            for (TransactionListing listing : admin.listTransactions().all().get()) {
                states.put(listing.producerId(), listing.state());
            }
            return stuck(open, states::get);
        } catch (java.util.concurrent.ExecutionException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /**
     * The open transactions of {@code open} (by partition) whose producer the coordinator holds as ended
     * ({@code state}: null for a producer it does not know).
     */
    static List<Stuck> stuck(Map<TopicPartition, List<ProducerState>> open, Function<Long, TransactionState> state) {
        List<Stuck> stuck = new ArrayList<>();
        open.forEach((tp, producers) -> producers.forEach(p -> {
            TransactionState s = state.apply(p.producerId());
            if (s == null || ENDED.contains(s)) {
                stuck.add(new Stuck(tp, p.producerId(), p.currentTransactionStartOffset().getAsLong()));
            }
        }));
        return stuck;
    }

    @Override
    public void close() {
        closed.countDown();
    }
}
