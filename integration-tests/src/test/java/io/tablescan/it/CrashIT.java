package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.local.FreePorts;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.GroupState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Crashes: `tablescan broker`, a ledger and two processes of every worker kind; instances are killed with
 * SIGKILL at random moments during a 50,000-row copy, or a scan publishing 20,324 rows to a topic, and restarted.
 * Nothing may be lost or counted twice, and a read_committed consumer reads each published row once. These
 * full-size runs are in the release tier; {@link KillMatrixIT} runs the same scans on small tables in the default.
 */
class CrashIT {
    static final List<String> KINDS = List.of("discovery", "partition", "copy");

    /** A broker, a ledger and two processes of every worker kind, each worker restartable after a SIGKILL. */
    static final class Cluster implements AutoCloseable {
        final ChildProcesses children;
        final KafkaSettings kafka;
        final Map<String, String> env;
        final Map<String, Process> workers = new HashMap<>();
        private final Process broker;
        private final Process ledger;

        Cluster(String name) throws Exception {
            this(name, 2);
        }

        /** With {@code each} processes of every worker kind. */
        Cluster(String name, int each) throws Exception {
            this(name, each, Map.of());
        }

        /** As above, with {@code extra} in every process's environment (account aliases, say). */
        Cluster(String name, int each, Map<String, String> extra) throws Exception {
            children = new ChildProcesses(name);
            try {
                int port = FreePorts.find();
                kafka = KafkaSettings.of("127.0.0.1:" + port);
                broker = children.start("broker", Map.of(), "broker", "--port", Integer.toString(port), "--dir",
                        Files.createTempDirectory("tablescan-broker-").toString());
                // deadlines, not waits: at load 50 to 66 on 2 cores, a broker took 2 minutes to start, the workers more
                assertThat(FreePorts.await(() -> FreePorts.accepts(port), Duration.ofSeconds(180), broker::isAlive))
                        .as("the broker accepts connections").isTrue();
                // Workers and ledger wait for the broker to answer as long as the test waits for them (default 60 s)
                Map<String, String> all = new HashMap<>(Map.of("TABLESCAN_KAFKA_WAIT", "4m"));
                all.putAll(extra);
                all.putAll(Map.of("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + port,
                        "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                        "TABLESCAN_TOPIC_PARTITIONS", "6"));
                env = Map.copyOf(all);
                for (String kind : KINDS) {
                    for (int i = 1; i <= each; i++) {
                        workers.put(kind + "-" + i, children.start(kind + "-" + i, env, "worker", kind));
                    }
                }
                ledger = children.start("ledger", env, "ledger");
                try (Admin admin = Admin.create(kafka.admin())) {
                    assertThat(FreePorts.await(() -> topicsExist(admin), Duration.ofSeconds(240), () -> true))
                            .as("the workers created the topics").isTrue();
                    // A ledger that gets its partitions after a short scan has run folds it all at once, and its first
                    // status with progress is already the ended one: then no worker could be killed mid-scan.
                    boolean assigned =
                            FreePorts.await(() -> ledgerAssigned(admin), Duration.ofSeconds(240), ledger::isAlive);
                    assertThat(assigned).as("the ledger has its partitions (its process alive: %s)", ledger.isAlive())
                            .isTrue();
                }
            } catch (Exception | AssertionError e) {
                children.close(); // a cluster that did not start leaves no process behind
                throw e;
            }
        }

        /**
         * Kills a random instance each time the scan has moved on by {@code step} rows written, then restarts it,
         * up to {@code most} times (every kind at least once when the scan lasts); returns once the scan ended.
         */
        List<String> killDuring(String scanId, int most, long step) throws Exception {
            return killDuring(scanId, most, step, ScanTotals::rowsWritten);
        }

        /** As above, the scan's progress measured by {@code progress} (rows read, for a scan that writes none). */
        List<String> killDuring(String scanId, int most, long step, java.util.function.ToLongFunction<ScanTotals> progress)
                throws Exception {
            return killDuring(scanId, most, step, progress, KINDS);
        }

        /** As above, the kinds killed first in the order given (a kind the test is about first: a scan may end early). */
        List<String> killDuring(String scanId, int most, long step, java.util.function.ToLongFunction<ScanTotals> progress,
                List<String> order) throws Exception {
            return killDuring(List.of(scanId), most, step, progress, order);
        }

        /**
         * As above for several scans at once, on the same workers: their progress summed, until every one has ended.
         * Each kill waits until the scans have moved on by {@code step} since the last one.
         */
        List<String> killDuring(List<String> scanIds, int most, long step,
                java.util.function.ToLongFunction<ScanTotals> progress, List<String> order) throws Exception {
            Random random = new Random(5);
            List<String> kills = new ArrayList<>();
            try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
                java.util.function.Supplier<long[]> now = () -> { // {rows, scans ended}
                    long rows = 0;
                    long ended = 0;
                    for (String id : scanIds) {
                        ScanTotals t = reader.latest(id);
                        rows += t.status() == null ? 0 : progress.applyAsLong(t);
                        ended += t.ended() ? 1 : 0;
                    }
                    return new long[] {rows, ended};
                };
                long[] at = now.get();
                boolean moving = FreePorts.await(() -> now.get()[0] > 0, Duration.ofMinutes(2), () -> true);
                assertThat(moving).as("the scans' first rows").isTrue();
                at = now.get();
                while (at[1] < scanIds.size() && kills.size() < most) {
                    List<String> names = new ArrayList<>(workers.keySet());
                    String victim = kills.size() < order.size() ? order.get(kills.size()) + "-" + (1 + random.nextInt(2))
                            : names.get(random.nextInt(names.size())); // every kind is killed at least once
                    Process process = workers.get(victim);
                    process.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful leave, an open transaction
                    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                    kills.add(victim + " at " + at[0] + " rows");
                    workers.put(victim, children.start(victim, env, "worker", victim.substring(0, victim.indexOf('-'))));
                    long rows = at[0];
                    FreePorts.await(() -> {
                        long[] n = now.get();
                        return n[1] == scanIds.size() || n[0] > rows + step;
                    }, Duration.ofMinutes(2), () -> true);
                    at = now.get();
                }
            }
            System.out.println("kills survived: " + kills.size() + " " + kills);
            return kills;
        }

        /**
         * Restarts every worker that has died (killed by a test that then failed before it restarted it), so that a
         * cluster shared by several tests is whole for the next one; a dead broker or ledger cannot be replaced.
         */
        void restartDeadWorkers() {
            assertThat(broker.isAlive()).as("the cluster's broker is alive").isTrue();
            assertThat(ledger.isAlive()).as("the cluster's ledger is alive").isTrue();
            workers.replaceAll((name, process) -> process.isAlive() ? process
                    : children.start(name, env, "worker", name.substring(0, name.indexOf('-'))));
        }

        @Override
        public void close() {
            children.close();
        }
    }

    @Test
    @Tag("release")
    void workersKilledWithSigkillMidCopyLoseNothing() throws Exception {
        List<String> kills = KillCases.runAlone("crashes", new KillCases.Copy("crash", 50_000), 6, 4_000,
                ScanTotals::rowsWritten, KINDS);
        assertThat(kills).hasSizeGreaterThanOrEqualTo(3);
    }

    /** The copy-worker, which holds the sink's unflushed rows, is killed first: a scan can end before a third kill. */
    @Test
    @Tag("release")
    void aSinkThatWritesOnlyAtItsCommitPointLosesNothingToSigkills() throws Exception {
        List<String> kills = KillCases.runAlone("buffering-crashes", new KillCases.Buffering("buffercrash", 30_000),
                4, 2_000, ScanTotals::rowsWritten, List.of("copy", "partition", "discovery"));
        assertThat(kills).as("a copy-worker killed").anyMatch(kill -> kill.startsWith("copy-"));
    }

    @Test
    @Tag("release")
    void rowsPublishedToATopicWithSigkillsArriveExactlyOnceForReadCommittedConsumers() throws Exception {
        List<String> kills = KillCases.runAlone("topic-crashes", new KillCases.Topic("topiccrash", 20_000), 4, 3_000,
                ScanTotals::rowsWritten, KINDS);
        assertThat(kills).hasSizeGreaterThanOrEqualTo(3);
    }

    private static boolean ledgerAssigned(Admin admin) {
        try {
            var group = admin.describeConsumerGroups(List.of(Namespace.DEFAULT.ledger())).all()
                    .get(10, TimeUnit.SECONDS).get(Namespace.DEFAULT.ledger());
            return group.groupState() == GroupState.STABLE
                    && group.members().stream().anyMatch(m -> !m.assignment().topicPartitions().isEmpty());
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean topicsExist(Admin admin) {
        try {
            return admin.listTopics().names().get().containsAll(Namespace.DEFAULT.topics());
        } catch (Exception e) {
            return false;
        }
    }
}
