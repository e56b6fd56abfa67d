package io.tablescan.local;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Apache Kafka broker (KRaft: broker and controller in one) inside this JVM, bound to
 * 127.0.0.1. Its data directory is formatted on first use and reused after, so a broker restarted on the
 * same directory keeps its topics and offsets.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    /** The ports of the broker that last ran on a kept directory: a file of ours, which Kafka does not read. */
    static final String PORTS = "tablescan-ports.properties";

    private final KafkaRaftServer server;
    private final int port;
    private final Path dir;
    private final boolean ownsDir;
    private final Thread hook;
    /** Asks for the coordinators after the start; closed with the broker, or it would retry a stopped broker. */
    private volatile Admin coordinators;
    private volatile boolean stopping;
    private static final String GROUPS_TOPIC = "__consumer_offsets";
    private static final String TRANSACTIONS_TOPIC = "__transaction_state";

    private EmbeddedKafkaBroker(KafkaRaftServer server, int port, Path dir, boolean ownsDir) {
        this.server = server;
        this.port = port;
        this.dir = dir;
        this.ownsDir = ownsDir;
        Thread stopOnExit = new Thread(this::stop, "kafka-stop");
        try {
            Runtime.getRuntime().addShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            stopOnExit = null; // started while the JVM exits (from a hook that waited for it): close() stops it
        }
        this.hook = stopOnExit;
    }

    /** Starts a broker on a free port with a temporary directory, deleted on close. */
    public static EmbeddedKafkaBroker start() {
        return start(0, null);
    }

    /**
     * A broker on a kept data directory starts again on the ports it had (recorded there, in {@value #PORTS}) when
     * they are free: the cluster's metadata names the broker's old endpoint until it has registered again, and the
     * transaction coordinator sends the markers that abort a killed run's transactions to that endpoint. On a new
     * port they would never arrive, the partitions' last stable offset would never move, and a resumed job's
     * read_committed workers would wait for ever.
     *
     * @param port the client port, or 0 for the one the directory's broker had, else a free one
     * @param dir the data directory, or null for a temporary one
     */
    public static EmbeddedKafkaBroker start(int port, Path dir) {
        boolean ownsDir = dir == null;
        try {
            Path data = ownsDir ? ScratchDirectories.create() : Files.createDirectories(dir);
            Properties kept = ownsDir ? new Properties() : readPorts(data);
            int clientPort = port != 0 ? port : keptOrFree(kept, "client", 0);
            if (FreePorts.accepts(clientPort)) {
                throw new IllegalStateException("port " + clientPort + " is already in use");
            }
            int controllerPort = keptOrFree(kept, "controller", clientPort);
            if (!ownsDir) {
                writePorts(data, clientPort, controllerPort);
            }
            Map<String, String> config = config(1, "1@127.0.0.1:" + controllerPort, clientPort, controllerPort, data, 1);
            return start(config, data, ownsDir, 1, Uuid.randomUuid().toString(), clientPort, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the broker's data directory", e);
        }
    }

    private static Properties readPorts(Path data) {
        Properties props = new Properties();
        try (var in = Files.newInputStream(data.resolve(PORTS))) {
            props.load(in);
        } catch (IOException e) {
            // first start on this directory, or a file a crash cut short: free ports
        }
        return props;
    }

    private static void writePorts(Path data, int client, int controller) throws IOException {
        Properties props = new Properties();
        props.setProperty("client", Integer.toString(client));
        props.setProperty("controller", Integer.toString(controller));
        Path tmp = data.resolve(PORTS + ".tmp");
        try (var out = Files.newOutputStream(tmp)) {
            props.store(out, "the embedded broker's ports, reused when it starts again on this directory");
        }
        Files.move(tmp, data.resolve(PORTS), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The kept port {@code name} if it is still free (and not {@code other}), else a free one. */
    private static int keptOrFree(Properties kept, String name, int other) {
        try {
            int port = Integer.parseInt(kept.getProperty(name, "0"));
            if (port > 0 && port != other && FreePorts.free(port)) {
                return port;
            }
        } catch (NumberFormatException e) {
            // not ours to trust: a free port
        }
        int port;
        do {
            port = FreePorts.find();
        } while (port == other);
        return port;
    }

    /**
     * Starts node {@code nodeId} (1 to n) of an n-node KRaft cluster on 127.0.0.1, each node both broker and
     * controller: the nodes' controller ports in node order, one cluster id for all, this node's client port, and a
     * data directory kept across restarts. The coordinators' topics have min(3, n) replicas. For tests of a cluster
     * that loses a broker; a user's cluster is a real Kafka deployment.
     */
    public static EmbeddedKafkaBroker startNode(int nodeId, List<Integer> controllerPorts, String clusterId, int port,
            Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the broker's data directory", e);
        }
        StringBuilder voters = new StringBuilder();
        for (int i = 0; i < controllerPorts.size(); i++) {
            voters.append(i == 0 ? "" : ",").append(i + 1).append("@127.0.0.1:").append(controllerPorts.get(i));
        }
        Map<String, String> config = config(nodeId, voters.toString(), port, controllerPorts.get(nodeId - 1), dir,
                Math.min(3, controllerPorts.size()));
        return start(config, dir, false, nodeId, clusterId, port, controllerPorts.size() == 1);
    }

    private static EmbeddedKafkaBroker start(Map<String, String> config, Path data, boolean ownsDir, int nodeId,
            String clusterId, int clientPort, boolean single) {
        KafkaRaftServer server = null;
        try {
            format(data, nodeId, clusterId);
            server = new KafkaRaftServer(new KafkaConfig(config, false), Time.SYSTEM);
            server.startup();
        } catch (RuntimeException | Error e) { // an Error too: a class that cannot load while the JVM exits
            if (server != null) {
                stopQuietly(server);
            }
            if (ownsDir) {
                ScratchDirectories.delete(data);
            }
            throw e;
        }
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, clientPort, data, ownsDir);
        broker.awaitReady(single);
        return broker;
    }

    /** Stops a server whose start failed, so that nothing writes to its directory once it is deleted. */
    private static void stopQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException | Error e) {
            // the start's failure is what the caller hears of
        }
    }

    /**
     * A node's configuration; {@code replicas} of the coordinators' topics (2 in sync where there are 3). A single
     * node's coordinator topics have one partition each: one process's few groups and producers need no more, and
     * each partition is files to create, load and close.
     */
    static Map<String, String> config(int nodeId, String voters, int clientPort, int controllerPort, Path data,
            int replicas) {
        String inSync = Integer.toString(replicas >= 3 ? 2 : 1);
        String coordinatorPartitions = replicas == 1 ? "1" : "5";
        return Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", Integer.toString(nodeId)),
                Map.entry("controller.quorum.voters", voters),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + clientPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + clientPort),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("log.dirs", data.toString()),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("offsets.topic.replication.factor", Integer.toString(replicas)),
                Map.entry("offsets.topic.num.partitions", coordinatorPartitions),
                Map.entry("transaction.state.log.replication.factor", Integer.toString(replicas)),
                Map.entry("transaction.state.log.min.isr", inSync),
                Map.entry("transaction.state.log.num.partitions", coordinatorPartitions),
                Map.entry("share.coordinator.state.topic.replication.factor", Integer.toString(replicas)),
                Map.entry("share.coordinator.state.topic.min.isr", inSync),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("group.consumer.min.session.timeout.ms", "6000"),
                Map.entry("group.consumer.session.timeout.ms", "10000"),
                Map.entry("group.consumer.min.heartbeat.interval.ms", "500"),
                Map.entry("group.consumer.heartbeat.interval.ms", "1000"),
                // Entity batches can approach an entity's 1 MiB limit; topics raise max.message.bytes themselves.
                Map.entry("message.max.bytes", "8388608"),
                Map.entry("replica.fetch.max.bytes", "8388608"),
                // A small dedupe buffer keeps the broker within a small heap (default is 128 MiB).
                Map.entry("log.cleaner.dedupe.buffer.size", "2097152"),
                Map.entry("log.segment.bytes", "67108864"),
                // Nothing expires: a local job resumed after a week must still find its open items, and the killed
                // run's transactions (their coordinator's decision is what a resume completes; 7 days by default).
                Map.entry("log.retention.ms", "-1"),
                Map.entry("transactional.id.expiration.ms", Integer.toString(Integer.MAX_VALUE)),
                // The controller's no-op record every 500 ms (each a metadata log append, flush and publish) is a
                // liveness signal for other nodes; a single node needs it rarely.
                Map.entry("metadata.max.idle.interval.ms", replicas == 1 ? "5000" : "500"),
                // The controller waits this long (25 ms by default) for more metadata writes before it appends and
                // flushes a batch: a local job's start and stop make a dozen changes one after another, each waited.
                Map.entry("controller.quorum.append.linger.ms", "0"),
                Map.entry("num.network.threads", "2"),
                Map.entry("num.io.threads", "4"));
    }

    private static void format(Path data, int nodeId, String clusterId) {
        if (Files.exists(data.resolve("meta.properties"))) {
            return; // formatted before: a restarted broker keeps its cluster id and its data
        }
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .addDirectory(data.toString())
                    .setMetadataLogDirectory(data.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the broker's data directory: " + e.getMessage(), e);
        }
    }

    private void awaitReady(boolean single) {
        Admin admin = Admin.create(adminProperties());
        try {
            boolean ready = FreePorts.await(() -> {
                try {
                    return !admin.describeCluster().nodes().get().isEmpty();
                } catch (Exception e) {
                    return false;
                }
            }, Duration.ofSeconds(60), () -> true);
            if (!ready) {
                close();
                throw new IllegalStateException("the embedded Kafka broker did not become ready");
            }
            if (single) {
                createCoordinatorTopics(admin);
            }
        } finally {
            admin.close(Duration.ZERO); // the coordinators' requests are left: their topics are what they were for
        }
        if (!single) {
            Thread.ofVirtual().name("kafka-coordinators").start(this::askForCoordinators);
        }
    }

    /**
     * The group and transaction coordinators' topics are created on their first use, while the clients that asked
     * ask again, each time a creation request to the controller. A single node's are made before the caller's
     * topics: the broker makes new partitions in the order their topics were created, so the clients the caller
     * starts next find their coordinators there, instead of asking dozens of times while the broker makes the
     * caller's partitions first. Asking for both coordinators has their topics created; this waits until the
     * topics exist (their partitions follow at once), at most 10 s, then leaves it to the clients.
     */
    private static void createCoordinatorTopics(Admin admin) {
        admin.describeConsumerGroups(List.of("coordinator-start"));
        admin.describeTransactions(List.of("coordinator-start"));
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            try {
                admin.describeTopics(List.of(GROUPS_TOPIC, TRANSACTIONS_TOPIC)).allTopicNames()
                        .get(left, TimeUnit.NANOSECONDS);
                return;
            } catch (ExecutionException e) {
                LockSupport.parkNanos(Duration.ofMillis(5).toNanos()); // not there yet: asked again in 5 ms
            } catch (TimeoutException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * A cluster's coordinators' topics need their replicas' brokers: asked for in the background, so that the
     * clients find them made, not on their own first use (asked again up to a second apart).
     */
    private void askForCoordinators() {
        Properties props = adminProperties();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(props)) {
            coordinators = admin;
            if (stopping) {
                return; // stopped while this admin was made
            }
            var group = admin.describeConsumerGroups(List.of("coordinator-start")).all();
            var transaction = admin.describeTransactions(List.of("coordinator-start")).all();
            for (var found : List.of(group, transaction)) {
                try {
                    found.get();
                } catch (ExecutionException e) {
                    // no such group or transaction: its coordinator answered, so its topic is there
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the clients find the coordinators themselves, as they would have anyway
        }
    }

    /** An admin client of this broker that asks again every 100 ms, not up to a second apart. */
    private Properties adminProperties() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "100");
        return props;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public Path dataDirectory() {
        return dir;
    }

    private synchronized void stop() {
        stopping = true;
        Admin admin = coordinators;
        if (admin != null) {
            admin.close(Duration.ZERO); // its requests fail at once: a stopped broker is not asked again
        }
        RaftReaperWake.during(server);
        server.shutdown();
        server.awaitShutdown();
        if (ownsDir) {
            ScratchDirectories.delete(dir);
        }
    }

    /** The Kafka server, for the tests of what reaches into it. */
    KafkaRaftServer server() {
        return server;
    }

    @Override
    public void close() {
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                return; // the JVM is exiting and the hook stops the broker
            }
        }
        stop();
    }
}
