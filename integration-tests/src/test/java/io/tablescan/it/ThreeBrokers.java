package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.local.FreePorts;
import io.tablescan.runtime.KafkaSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka cluster of three KRaft nodes (each broker and controller), each a JVM of its own on 127.0.0.1 with its
 * data kept across restarts: one can be killed with SIGKILL, stopped or restarted while the others serve.
 */
final class ThreeBrokers implements AutoCloseable {
    private final ChildProcesses children;
    private final List<Integer> ports = new ArrayList<>();
    private final List<Integer> controllerPorts = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();
    private final Process[] nodes = new Process[3];
    private final String clusterId = Uuid.randomUuid().toString();
    final KafkaSettings kafka;

    /** Starts the three nodes and returns at once, while they are still starting. */
    ThreeBrokers(String name) throws Exception {
        children = new ChildProcesses(name);
        for (int i = 0; i < 3; i++) {
            ports.add(FreePorts.find());
            controllerPorts.add(FreePorts.find());
            dirs.add(Files.createTempDirectory("tablescan-node" + (i + 1) + "-"));
        }
        kafka = KafkaSettings.of(String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList()));
        for (int node = 1; node <= 3; node++) {
            start(node);
        }
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** Starts node 1, 2 or 3 (again) on its own data. */
    void start(int node) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx320m", "-cp", System.getProperty("java.class.path"), Node.class.getName(),
                Integer.toString(node), clusterId, Integer.toString(ports.get(node - 1)), dirs.get(node - 1).toString()));
        controllerPorts.forEach(p -> command.add(Integer.toString(p)));
        nodes[node - 1] = children.start("node" + node, Map.of(), command);
    }

    /** SIGKILL: no controlled shutdown; its partitions' leaders move only once the controller sees it gone. */
    void kill(int node) throws InterruptedException {
        nodes[node - 1].destroyForcibly();
        assertThat(nodes[node - 1].waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** SIGTERM: a controlled shutdown, as a rolling restart does. */
    void stop(int node) throws InterruptedException {
        nodes[node - 1].destroy();
        assertThat(nodes[node - 1].waitFor(60, TimeUnit.SECONDS)).as("node " + node + " stopped").isTrue();
    }

    /** Waits until the cluster has {@code count} live brokers. */
    void awaitBrokers(int count) {
        try (Admin admin = Admin.create(kafka.admin())) {
            assertThat(FreePorts.await(() -> {
                try {
                    return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == count;
                } catch (Exception e) {
                    return false;
                }
            }, Duration.ofSeconds(120), () -> true)).as(count + " brokers up").isTrue();
        }
    }

    /** Waits until every partition of every topic has all its replicas in sync again (after a restart). */
    void awaitInSync() {
        try (Admin admin = Admin.create(kafka.admin())) {
            assertThat(FreePorts.await(() -> {
                try {
                    var names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                            .names().get(5, TimeUnit.SECONDS);
                    return admin.describeTopics(names).allTopicNames().get(5, TimeUnit.SECONDS).values().stream()
                            .flatMap(d -> d.partitions().stream())
                            .allMatch(p -> p.isr().size() == p.replicas().size());
                } catch (Exception e) {
                    return false;
                }
            }, Duration.ofSeconds(120), () -> true)).as("every replica in sync").isTrue();
        }
    }

    /** The records produced so far to the topics whose names contain {@code part}, committed or not. */
    long records(String part) {
        try (Admin admin = Admin.create(kafka.admin())) {
            var names = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream().filter(n -> n.contains(part)).toList();
            var request = new java.util.HashMap<org.apache.kafka.common.TopicPartition,
                    org.apache.kafka.clients.admin.OffsetSpec>();
            admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS).values().forEach(d -> d.partitions()
                    .forEach(p -> request.put(new org.apache.kafka.common.TopicPartition(d.name(), p.partition()),
                            org.apache.kafka.clients.admin.OffsetSpec.latest())));
            return admin.listOffsets(request).all().get(10, TimeUnit.SECONDS).values().stream()
                    .mapToLong(o -> o.offset()).sum();
        } catch (Exception e) {
            return 0; // a cluster electing leaders answers later
        }
    }

    ChildProcesses children() {
        return children;
    }

    @Override
    public void close() throws Exception {
        children.close();
        for (Path dir : dirs) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One node, in a JVM of its own: node id, cluster id, client port, data directory, the three controller ports. */
    public static final class Node {
        public static void main(String[] args) throws InterruptedException {
            List<Integer> controllers = List.of(Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]));
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startNode(Integer.parseInt(args[0]), controllers, args[1],
                    Integer.parseInt(args[2]), Path.of(args[3]));
            System.out.println("node " + args[0] + " serving on " + broker.bootstrapServers());
            new CountDownLatch(1).await(); // until SIGTERM (the broker's shutdown hook stops it) or SIGKILL
        }
    }
}
