package io.tablescan.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker restarted on a kept directory (a local job resumed) comes back on its port, so that the markers aborting a
 * killed run's open transaction reach it and read_committed readers get past that transaction.
 */
class EmbeddedKafkaBrokerTest {
    private static final TopicPartition ITEMS = new TopicPartition("items", 0);

    @TempDir
    Path dir;

    @Test
    void aRestartedBrokerKeepsItsPortAndAKilledRunsTransactionIsAbortedForItsReaders() throws Exception {
        String first;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, dir)) {
            first = broker.bootstrapServers();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", first))) {
                admin.createTopics(List.of(new NewTopic(ITEMS.topic(), 1, (short) 1))).all().get();
            }
            KafkaProducer<String, String> killed = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, first,
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "killed-run",
                    ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "2000"),
                    new StringSerializer(), new StringSerializer());
            killed.initTransactions();
            killed.beginTransaction();
            killed.send(new ProducerRecord<>(ITEMS.topic(), "k", "v")).get();
            killed.close(Duration.ZERO); // as a SIGKILL leaves it: the transaction neither committed nor aborted
        }

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, dir);
                KafkaConsumer<String, String> reader = readCommitted(broker.bootstrapServers())) {
            assertThat(broker.bootstrapServers()).isEqualTo(first);
            reader.assign(List.of(ITEMS));
            // the record and its abort marker: the last stable offset passes both once the abort reached the partition
            boolean aborted = FreePorts.await(() -> {
                reader.seekToEnd(List.of(ITEMS));
                return reader.position(ITEMS) >= 2;
            }, Duration.ofSeconds(90), () -> true);
            assertThat(aborted).as("the killed run's transaction was aborted on the restarted broker").isTrue();
            reader.seekToBeginning(List.of(ITEMS));
            assertThat(reader.poll(Duration.ofSeconds(1))).isEmpty();
        }
    }

    @Test
    void aBrokerWhosePortWasTakenStartsOnAnother() throws Exception {
        int firstPort;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, dir)) {
            firstPort = port(broker);
        }
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), firstPort));
            try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, dir)) {
                assertThat(port(broker)).isNotEqualTo(firstPort);
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                    assertThat(admin.describeCluster().nodes().get()).hasSize(1);
                }
            }
        }
    }

    /**
     * The controller of a single node appends a no-op record to the metadata log every 5 s, not every 500 ms: each is
     * an append, a flush and a publish to the broker, a cost per second of every local command.
     */
    @Test
    void aSingleNodesMetadataLogStaysStillWhileNothingChanges() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
                Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            // the coordinators' topics, created just after the start, are metadata records of their own
            boolean coordinators = FreePorts.await(() -> {
                try {
                    return admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get()
                            .containsAll(List.of("__consumer_offsets", "__transaction_state"));
                } catch (Exception e) {
                    return false;
                }
            }, Duration.ofSeconds(60), () -> true);
            assertThat(coordinators).isTrue();
            long before = admin.describeMetadataQuorum().quorumInfo().get().highWatermark();
            Thread.sleep(3000); // a window to count records in, not a wait for something
            long after = admin.describeMetadataQuorum().quorumInfo().get().highWatermark();
            assertThat(after - before).as("metadata records appended in 3 idle seconds").isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aSingleNodesCoordinatorTopicsAreThereWhenItHasStarted() throws Exception {
        // made before anything of the caller's, so that the clients it starts find their coordinators at once
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
                Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            assertThat(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())
                    .contains("__consumer_offsets", "__transaction_state");
        }
    }

    @Test
    void theRaftTimerAStopWouldWaitForIsFoundOnThisKafkaVersion() {
        // Found by its private field's name: a Kafka upgrade that moves it makes every stop up to 200 ms longer.
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            assertThat(RaftReaperWake.during(broker.server())).isTrue();
        }
    }

    private static int port(EmbeddedKafkaBroker broker) {
        String servers = broker.bootstrapServers();
        return Integer.parseInt(servers.substring(servers.lastIndexOf(':') + 1));
    }

    private static KafkaConsumer<String, String> readCommitted(String servers) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }
}
