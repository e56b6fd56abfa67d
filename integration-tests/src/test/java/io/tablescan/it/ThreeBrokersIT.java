package io.tablescan.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A cluster of three brokers as users run one: tablescan's topics get 3 replicas with 2 in sync, and a copy, an
 * export and rows sent to a topic each complete exactly while one broker is killed with SIGKILL for good in the
 * middle; then a copy goes on through a rolling restart of all three. Each command runs as a process of its own,
 * as a user starts it, with the three brokers as its {@code --kafka}.
 *
 * <p>About 5 minutes on a 2-core machine: in the release tier ({@code ./tablescan test --release}), not in every build.
 */
@Tag("release")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ThreeBrokersIT {
    private static final String SOURCE = "threebrokers";
    private static final int ROWS = 20_000;
    private static ThreeBrokers cluster;
    private static String cs;

    @BeforeAll
    static void start() throws Exception {
        cs = LocalServices.azurite().connectionString();
        SampleTable.write(LocalServices.store(), SOURCE, SampleTable.rows(ROWS), 16);
        cluster = new ThreeBrokers("three-brokers"); // still starting when the first test starts its command
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Runs a command as its own process; once it has produced {@code records} to the cluster's topics, does
     * {@code then}.
     */
    private static int runThrough(String label, long records, Interruption then, String... args) throws Exception {
        long before = cluster.records("");
        Process command = cluster.children().start(label, Map.of(), args);
        assertThat(FreePorts.await(() -> cluster.records("") >= before + records, Duration.ofMinutes(3), command::isAlive))
                .as(label + " under way: " + cluster.children().output(label)).isTrue();
        then.run();
        assertThat(command.waitFor(8, TimeUnit.MINUTES)).as(label + " ended").isTrue();
        return command.exitValue();
    }

    interface Interruption {
        void run() throws Exception;
    }

    private static void assertEqualToTheSource(String table) {
        RestTableReader rest = RestTableReader.fromConnectionString(cs);
        TableComparer.Result check = TableComparer.compare(rest, SOURCE, rest, table);
        assertThat(check.examples()).isEmpty();
        assertThat(check.sourceRows()).isEqualTo(ROWS);
        assertThat(check.equal()).isTrue();
    }

    /** A broker lost for good, then replaced: a new broker on the lost one's data, as an operator would. */
    private static void replace(int node) {
        cluster.start(node);
        cluster.awaitBrokers(3);
        cluster.awaitInSync();
    }

    /**
     * A command started with the brokers, before any of them answers: it waits for the cluster, and the topics it
     * creates get 3 replicas, not the one broker that happened to answer first.
     */
    @Test
    @Order(0)
    void aCommandStartedWithTheBrokersWaitsAndItsTopicsGetThreeReplicas() throws Exception {
        Process early = cluster.children().start("early", Map.of("TABLESCAN_KAFKA_WAIT", "180s"), "copy",
                "--source-connection-string", cs, "--source-table", SOURCE, "--to-topic", "threebrokers-early",
                "--kafka", cluster.bootstrapServers(), "--page-size", "1000");
        assertThat(early.waitFor(6, TimeUnit.MINUTES)).as("the early copy ended").isTrue();
        assertThat(early.exitValue()).as(cluster.children().output("early")).isZero();
        try (Admin admin = Admin.create(cluster.kafka.admin())) {
            var description = admin.describeTopics(List.of("threebrokers-early")).allTopicNames().get()
                    .get("threebrokers-early");
            assertThat(description.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
        }
        cluster.awaitBrokers(3);
    }

    @Test
    @Order(1)
    void aCopyCompletesExactlyWhenABrokerIsLostForGoodInTheMiddle() throws Exception {
        int exit = runThrough("copy", 500, () -> cluster.kill(2), "copy", "--source-connection-string", cs,
                "--source-table", SOURCE, "--dest-table", "threebrokerscopy", "--kafka", cluster.bootstrapServers(),
                "--page-size", "100");
        assertThat(exit).as(cluster.children().output("copy")).isZero();
        assertThat(cluster.children().output("copy")).contains("rows written:  20,000");
        assertEqualToTheSource("threebrokerscopy");
        replace(2);
    }

    @Test
    @Order(2)
    void anExportCompletesExactlyWhenABrokerIsLostForGoodInTheMiddle() throws Exception {
        Path export = Files.createTempDirectory("threebrokers-export").resolve("backup");
        int exit = runThrough("export", 3_000, () -> cluster.kill(3), "export", "--source-connection-string", cs,
                "--source-table", SOURCE, "--to", export.toString(), "--kafka", cluster.bootstrapServers(),
                "--page-size", "100");
        assertThat(exit).as(cluster.children().output("export")).isZero();
        Cli.Run restore = Cli.run("import", "--from", export.toString(), "--dest-connection-string", cs,
                "--dest-table", "threebrokersimport");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertEqualToTheSource("threebrokersimport");
        replace(3);
    }

    @Test
    @Order(3)
    void rowsSentToATopicArriveOnceWhenABrokerIsLostForGoodInTheMiddle() throws Exception {
        int exit = runThrough("topic", 3_000, () -> cluster.kill(1), "copy", "--source-connection-string", cs,
                "--source-table", SOURCE, "--to-topic", "threebrokers-rows", "--kafka", cluster.bootstrapServers(),
                "--page-size", "100");
        assertThat(exit).as(cluster.children().output("topic")).isZero();
        Set<String> keys = new HashSet<>();
        int records = 0;
        Map<String, Object> config = Map.of("bootstrap.servers", cluster.bootstrapServers(),
                "isolation.level", "read_committed");
        try (var consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = Topics.partitions(consumer, "threebrokers-rows");
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<String> read = new java.util.ArrayList<>();
            Topics.readToEnd(consumer, consumer.endOffsets(partitions), r -> read.add(new String(r.key(), UTF_8)));
            records = read.size();
            keys.addAll(read);
        }
        assertThat(records).as("every row once").isEqualTo(ROWS);
        assertThat(keys).hasSize(ROWS);
        replace(1);
    }

    @Test
    @Order(4)
    void theTopicsHaveThreeReplicasAndACopyGoesOnThroughARollingRestart() throws Exception {
        try (Admin admin = Admin.create(cluster.kafka.admin())) {
            var description = admin.describeTopics(List.of("threebrokers-rows")).allTopicNames().get()
                    .get("threebrokers-rows");
            assertThat(description.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
            var config = admin.describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "threebrokers-rows"))).all().get();
            assertThat(config.values().iterator().next().get("min.insync.replicas").value()).isEqualTo("2");
        }
        int exit = runThrough("rolling", 500, () -> {
            for (int node = 1; node <= 3; node++) {
                cluster.stop(node);
                cluster.start(node);
                cluster.awaitBrokers(3);
                cluster.awaitInSync();
            }
        }, "copy", "--source-connection-string", cs, "--source-table", SOURCE, "--dest-table", "threebrokersrolling",
                "--kafka", cluster.bootstrapServers(), "--page-size", "100");
        assertThat(exit).as(cluster.children().output("rolling")).isZero();
        assertEqualToTheSource("threebrokersrolling");
    }
}
