package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.local.FreePorts;
import io.tablescan.runtime.KafkaSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest.TxnMarkerEntry;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's transaction coordinator skips the marker of a partition that has no leader when a transaction ends (as
 * on a restarted embedded broker, fenced and not yet unfenced), and the transaction stays open there for ever;
 * {@link KilledTransactions#settle} writes the marker the coordinator decided on.
 */
class KilledTransactionsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final TopicPartition HELD = new TopicPartition("held", 0);
    private static final TopicPartition KEPT = new TopicPartition("kept", 0);

    @Test
    void writesTheCommitMarkerThatTheCoordinatorSkippedOnALeaderlessPartition(@TempDir Path dir) throws Exception {
        Cluster cluster = Cluster.start(dir);
        List<EmbeddedKafkaBroker> nodes = cluster.nodes();
        String bootstrap = "127.0.0.1:" + cluster.ports().get(0) + ",127.0.0.1:" + cluster.ports().get(1);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic("held", Map.of(0, List.of(3))),
                    new NewTopic("kept", Map.of(0, List.of(1))))).all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(bootstrap))) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(HELD.topic(), "row", "a"));
                producer.send(new ProducerRecord<>(KEPT.topic(), "row", "b"));
                producer.flush();
                nodes.remove(2).close(); // node 3, the only replica of "held", stops: the partition has no leader
                assertThat(FreePorts.await(() -> leader(admin, HELD) == null, DEADLINE, () -> true)).isTrue();
                producer.commitTransaction();
            }
            assertThat(FreePorts.await(() -> state(admin) == TransactionState.COMPLETE_COMMIT, DEADLINE, () -> true))
                    .as("the coordinator ends the transaction without the leaderless partition's marker").isTrue();
            nodes.add(cluster.startNode(3)); // again, on its data
            assertThat(FreePorts.await(() -> leader(admin, HELD) != null, DEADLINE, () -> true)).isTrue();
            assertThat(stableOffset(admin, HELD)).as("Kafka leaves the transaction open there").isZero();

            KilledTransactions.settle(KafkaSettings.of(bootstrap));

            assertThat(stableOffset(admin, HELD)).as("committed: its marker follows the row").isEqualTo(2);
            assertThat(committedValues(bootstrap)).containsExactlyInAnyOrder("a", "b");
            KilledTransactions.settle(KafkaSettings.of(bootstrap)); // nothing left to end: returns at once
        } finally {
            Cluster.close(nodes);
        }
    }

    /** Three nodes, each broker and controller, in this JVM. */
    private record Cluster(List<Integer> controllers, List<Integer> ports, String id, Path dir,
            List<EmbeddedKafkaBroker> nodes) {
        /** Started together (a node is ready once the quorum is), on new ports again if one was taken meanwhile. */
        static Cluster start(Path root) {
            for (int attempt = 1; ; attempt++) {
                List<Integer> free = new ArrayList<>(new LinkedHashSet<>(Stream.generate(FreePorts::find).limit(12).toList()));
                Cluster cluster = new Cluster(free.subList(0, 3), free.subList(3, 6), Uuid.randomUuid().toString(),
                        root.resolve("attempt" + attempt), new ArrayList<>());
                List<CompletableFuture<EmbeddedKafkaBroker>> starting = new ArrayList<>();
                for (int node = 1; node <= 3; node++) {
                    int id = node;
                    starting.add(CompletableFuture.supplyAsync(() -> cluster.startNode(id)));
                }
                RuntimeException failure = null;
                for (CompletableFuture<EmbeddedKafkaBroker> node : starting) {
                    try {
                        cluster.nodes().add(node.join());
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                }
                if (failure == null) {
                    return cluster;
                }
                close(cluster.nodes());
                if (attempt == 3) {
                    throw failure;
                }
            }
        }

        /** Node {@code node} (1 to 3), on its own ports and data: started, or started again after a stop. */
        EmbeddedKafkaBroker startNode(int node) {
            return EmbeddedKafkaBroker.startNode(node, controllers, id, ports.get(node - 1), dir.resolve("node" + node));
        }

        /** Together: a node stopping alone after the others would wait for a quorum that is gone. */
        static void close(List<EmbeddedKafkaBroker> nodes) {
            CompletableFuture.allOf(nodes.stream().map(n -> CompletableFuture.runAsync(n::close))
                    .toArray(CompletableFuture[]::new)).join();
        }
    }

    @Test
    void aMarkerEndsATransactionAsItsCoordinatorEndedIt() {
        KilledTransactions.Open open = new KilledTransactions.Open(HELD, new Node(1, "127.0.0.1", 9092),
                new ProducerState(7, 16, 0, 0L, OptionalInt.of(2), OptionalLong.of(26)));

        TxnMarkerEntry commit = KilledTransactions.marker(open, described(TransactionState.COMPLETE_COMMIT, 7, 17))
                .orElseThrow();
        assertThat(commit.transactionResult()).isEqualTo(TransactionResult.COMMIT);
        assertThat(commit.producerEpoch()).as("version 2: the bumped epoch").isEqualTo((short) 17);
        assertThat(commit.transactionVersion()).isEqualTo((short) 2);
        assertThat(commit.coordinatorEpoch()).isEqualTo(2);
        assertThat(commit.partitions()).containsExactly(HELD);

        TxnMarkerEntry abort = KilledTransactions.marker(open, described(TransactionState.COMPLETE_ABORT, 7, 16))
                .orElseThrow();
        assertThat(abort.transactionResult()).isEqualTo(TransactionResult.ABORT);
        assertThat(abort.transactionVersion()).as("version 1: the same epoch").isEqualTo((short) 1);

        assertThat(KilledTransactions.marker(open, described(TransactionState.ONGOING, 7, 16)))
                .as("not ended by its coordinator").isEqualTo(Optional.empty());
        assertThat(KilledTransactions.marker(open, described(TransactionState.COMPLETE_COMMIT, 7, 19)))
                .as("the coordinator holds a later transaction").isEmpty();
        assertThat(KilledTransactions.marker(open, described(TransactionState.COMPLETE_COMMIT, 8, 17)))
                .as("another producer").isEmpty();
        assertThat(KilledTransactions.marker(open, described(TransactionState.EMPTY, 7, 17))).isEmpty();
    }

    private static TransactionDescription described(TransactionState state, long producerId, int epoch) {
        return new TransactionDescription(1, state, producerId, epoch, 15_000, OptionalLong.empty(), Set.of());
    }

    private static Properties producerProps(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "killed");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    private static Node leader(Admin admin, TopicPartition tp) {
        try {
            Node leader = admin.describeTopics(List.of(tp.topic())).allTopicNames().get().get(tp.topic())
                    .partitions().get(tp.partition()).leader();
            return leader == null || leader.isEmpty() ? null : leader;
        } catch (Exception e) {
            return null;
        }
    }

    private static TransactionState state(Admin admin) {
        try {
            return admin.describeTransactions(List.of("killed")).description("killed").get().state();
        } catch (Exception e) {
            return null;
        }
    }

    private static long stableOffset(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(tp).get().offset();
    }

    private static List<String> committedValues(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(List.of(HELD, KEPT));
            consumer.seekToBeginning(List.of(HELD, KEPT));
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (values.size() < 2 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
            }
        }
        return values;
    }
}
