package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
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
import org.junit.jupiter.api.Test;

/**
 * Crashes: `tablescan broker`, a ledger and two processes of every worker kind; instances are killed with
 * SIGKILL at random moments during a 50,000-row copy and restarted. Nothing may be lost or counted twice.
 */
class CrashIT {
    static final List<String> KINDS = List.of("discovery", "partition", "copy");

    @Test
    void workersKilledWithSigkillMidCopyLoseNothing() throws Exception {
        var store = LocalServices.store();
        SampleTable.write(store, "crashsource", SampleTable.rows(50_000), 16);
        int port = FreePorts.find();
        KafkaSettings kafka = KafkaSettings.of("127.0.0.1:" + port);
        try (ChildProcesses children = new ChildProcesses("crashes")) {
            Process broker = children.start("broker", Map.of(), "broker", "--port", Integer.toString(port), "--dir",
                    Files.createTempDirectory("tablescan-broker-").toString());
            assertThat(FreePorts.await(() -> FreePorts.accepts(port), Duration.ofSeconds(60), broker::isAlive)).isTrue();
            Map<String, String> env = Map.of("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + port,
                    "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                    "TABLESCAN_TOPIC_PARTITIONS", "6");
            Map<String, Process> workers = new HashMap<>();
            for (String kind : KINDS) {
                for (int i = 1; i <= 2; i++) {
                    workers.put(kind + "-" + i, children.start(kind + "-" + i, env, "worker", kind));
                }
            }
            children.start("ledger", env, "ledger");
            try (Admin admin = Admin.create(kafka.admin())) {
                assertThat(FreePorts.await(() -> topicsExist(admin), Duration.ofSeconds(90), () -> true)).isTrue();
            }
            var spec = ScanSpecs.copy().from(new TableRef("emulator", "crashsource"))
                    .to(new TableRef("emulator", "crashcopy")).pageSize(200).strategy(ScanStrategy.PREFIX).build();
            ScanStarter.start(kafka, spec);

            // Kill a random instance each time the copy has moved on by a few thousand rows, then restart it.
            Random random = new Random(5);
            List<String> kills = new ArrayList<>();
            ScanTotals t = ScanAwait.until(kafka, spec.getScanId(), s -> s.rowsWritten() > 0, Duration.ofMinutes(2));
            while (!t.ended() && kills.size() < 6) {
                List<String> names = new ArrayList<>(workers.keySet());
                String victim = kills.size() < KINDS.size() ? KINDS.get(kills.size()) + "-" + (1 + random.nextInt(2))
                        : names.get(random.nextInt(names.size())); // every kind is killed at least once
                Process process = workers.get(victim);
                process.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful leave, an open transaction
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                kills.add(victim + " at " + t.rowsWritten() + " rows");
                workers.put(victim, children.start(victim, env, "worker", victim.substring(0, victim.indexOf('-'))));
                long rows = t.rowsWritten();
                t = ScanAwait.until(kafka, spec.getScanId(), s -> s.ended() || s.rowsWritten() > rows + 4_000,
                        Duration.ofMinutes(2));
            }
            t = ScanAwait.ended(kafka, spec.getScanId(), Duration.ofMinutes(6));
            System.out.println("kills survived: " + kills.size() + " " + kills);

            assertThat(kills).hasSizeGreaterThanOrEqualTo(3);
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsRead()).isEqualTo(50_000);
            assertThat(t.rowsWritten()).isEqualTo(50_000);
            assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
            TableComparer.Result check = TableComparer.compare(store, "crashsource", store, "crashcopy");
            assertThat(check.examples()).isEmpty();
            assertThat(check.equal()).isTrue();
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
