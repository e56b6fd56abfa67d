package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import java.nio.file.Files;
import io.tablescan.spi.Row;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The deployment shape: `tablescan broker` and each worker as its own process, the scan seeded from outside, at full
 * size (release tier); {@link StartTogetherIT} copies the same kind of table on such processes in the default tier.
 */
class SeparateProcessesIT {
    /** The sample's {@code sample} rows (every EDM type, one big partition) plus a row for each pair of odd keys. */
    static List<Row> rows(int sample) {
        var rows = new java.util.ArrayList<>(SampleTable.rows(sample));
        java.util.Random random = new java.util.Random(3);
        for (String pk : OddKeys.KEYS) {
            for (String rk : OddKeys.KEYS) {
                rows.add(SampleTable.row(pk, rk, random));
            }
        }
        return rows;
    }

    @Test
    @Tag("release")
    void threeWorkerProcessesCopyATableExactly() throws Exception {
        var store = LocalServices.store();
        // Tens of thousands of rows
        var rows = rows(19_676);
        SampleTable.write(store, "procsource", rows, 16);
        int port = FreePorts.find();
        try (ChildProcesses children = new ChildProcesses("separate-processes")) {
            Process broker = children.start("broker", Map.of(), "broker", "--port", Integer.toString(port), "--dir",
                    Files.createTempDirectory("tablescan-broker-").toString());
            assertThat(FreePorts.await(() -> FreePorts.accepts(port), Duration.ofSeconds(60), broker::isAlive))
                    .as("broker listening").isTrue();
            Map<String, String> env = Map.of(
                    "KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + port,
                    "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                    "TABLESCAN_TOPIC_PARTITIONS", "4");
            for (String worker : new String[] {"discovery", "partition", "copy"}) {
                children.start(worker, env, "worker", worker);
            }
            children.start("ledger", env, "ledger");
            KafkaSettings kafka = KafkaSettings.of("127.0.0.1:" + port);
            var spec = ScanSpecs.copy().from(new TableRef("emulator", "procsource"))
                    .to(new TableRef("emulator", "proccopy")).pageSize(700).strategy(ScanStrategy.PREFIX).build();
            // The workers create the topics; seeding waits for them through the watcher's metadata call.
            try (var admin = org.apache.kafka.clients.admin.Admin.create(kafka.admin())) {
                assertThat(FreePorts.await(() -> topicsExist(admin), Duration.ofSeconds(90), () -> true)).isTrue();
            }
            ScanStarter.start(kafka, spec);
            ScanTotals totals = ScanAwait.ended(kafka, spec.getScanId(), Duration.ofMinutes(5));

            assertThat(totals.complete()).isTrue();
            assertThat(totals.itemsFailed()).isZero();
            assertThat(totals.rowsWritten()).isEqualTo(rows.size());
            TableComparer.Result check = TableComparer.compare(store, "procsource", store, "proccopy");
            assertThat(check.examples()).isEmpty();
            assertThat(check.equal()).isTrue();
        }
    }

    private static boolean topicsExist(org.apache.kafka.clients.admin.Admin admin) {
        try {
            return admin.listTopics().names().get().containsAll(io.tablescan.runtime.Namespace.DEFAULT.topics());
        } catch (Exception e) {
            return false;
        }
    }
}
