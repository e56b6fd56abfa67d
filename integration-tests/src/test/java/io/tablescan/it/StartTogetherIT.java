package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.ledger.ScanLedger;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.spi.Row;
import io.tablescan.table.Accounts;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A cluster started all at once, as a script, compose or Kubernetes starts it: every process waits for a broker
 * that is starting, and a follower waits for a ledger that has not recorded the scan yet.
 */
class StartTogetherIT {
    static final Pattern SCAN_ID = Pattern.compile("(?m)^(scan-\\S+)$");

    /**
     * The children's environment; their wait for Kafka is set here, not inherited from the developer's, and long
     * enough for six JVMs starting on two cores.
     */
    static Map<String, String> env(String bootstrap, String namespace) {
        return Map.of("KAFKA_BOOTSTRAP_SERVERS", bootstrap, "TABLESCAN_NAMESPACE", namespace,
                "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                "TABLESCAN_TOPIC_PARTITIONS", "4", "TABLESCAN_KAFKA_WAIT", "180s");
    }

    /**
     * Also the deployment shape that {@link SeparateProcessesIT} proves at full size (release tier): every worker kind
     * as its own process copies a table of every EDM type, one big partition and odd keys exactly.
     */
    @Test
    void aBrokerThreeWorkersALedgerAndStartLaunchedTogetherCopyExactly() throws Exception {
        List<Row> rows = SeparateProcessesIT.rows(3_000);
        SampleTable.write(LocalServices.store(), "togethersource", rows, 8);
        int port = FreePorts.find();
        Map<String, String> env = env("127.0.0.1:" + port, "tablescan");
        try (ChildProcesses children = new ChildProcesses("start-together")) {
            for (String label : new String[] {"broker", "discovery", "partition", "copy", "ledger", "start"}) {
                Files.deleteIfExists(children.log(label).toPath()); // logs are appended to: drop an earlier run's
            }
            // No waiting in between: the broker is the slowest to come up.
            children.start("broker", Map.of(), "broker", "--port", Integer.toString(port));
            for (String worker : new String[] {"discovery", "partition", "copy"}) {
                children.start(worker, env, "worker", worker);
            }
            children.start("ledger", env, "ledger");
            Process start = children.start("start", env, "start", "--source-account", "emulator", "--source-table",
                    "togethersource", "--dest-account", "emulator", "--dest-table", "togethercopy", "--page-size", "200",
                    "--wait", "--timeout", "5m");

            assertThat(start.waitFor(6, TimeUnit.MINUTES)).as(children.output("start")).isTrue();
            assertThat(start.exitValue()).as(children.output("start") + children.output("copy")).isZero();
            assertThat(children.output("start")).contains(String.format("rows written:  %,d", rows.size()))
                    .doesNotContain("cannot reach Kafka");
            for (String label : new String[] {"discovery", "partition", "copy", "ledger"}) {
                assertThat(children.output(label)).as(label).doesNotContain("cannot reach Kafka");
            }
        }
        TableComparer.Result check = TableComparer.compare(LocalServices.store(), "togethersource",
                LocalServices.store(), "togethercopy");
        assertThat(check.examples()).isEmpty();
        assertThat(check.equal()).isTrue();
        assertThat(check.sourceRows()).isEqualTo(rows.size());
    }

    /**
     * The workers and the ledger in this JVM, the scan started through the API (what is proven is the command's
     * wait), the watching command a process (it reads TABLESCAN_NAMESPACE from its environment).
     */
    @Test
    void statusWatchWaitsForALedgerThatHasNotRecordedTheScanYet() throws Exception {
        SampleTable.write(LocalServices.store(), "watchsource", SampleTable.rows(500), 4);
        String bootstrap = LocalServices.broker().bootstrapServers();
        Map<String, String> env = env(bootstrap, "watch-ledger-it");
        KafkaSettings kafka = KafkaSettings.of(bootstrap).withNamespace(Namespace.of("watch-ledger-it"));
        WorkerSettings settings = WorkerSettings.local(kafka,
                new Accounts(alias -> null).register("emulator", LocalServices.store()));
        try (ChildProcesses children = new ChildProcesses("watch-ledger");
                LocalPipeline workers = LocalPipeline.start(settings, false)) {
            Files.deleteIfExists(children.log("status").toPath());
            ScanSpec spec = ScanSpecs.copy().from(new TableRef("emulator", "watchsource"))
                    .to(new TableRef("emulator", "watchcopy")).build();
            ScanStarter.start(kafka, spec);
            String id = spec.getScanId();

            // No ledger yet: the scan's start is in its events topic only.
            Process status = children.start("status", env, "status", id, "--watch", "--timeout", "5m");
            assertThat(FreePorts.await(() -> children.output("status").contains("waiting for a ledger to record scan "
                    + id), Duration.ofMinutes(2), status::isAlive)).as(children.output("status")).isTrue();
            try (ScanLedger ledger = ScanLedger.start(kafka)) {
                assertThat(status.waitFor(5, TimeUnit.MINUTES)).as(children.output("status")).isTrue();
            }
            assertThat(status.exitValue()).as(children.output("status")).isZero();
            assertThat(children.output("status")).contains("rows written:  500");
        }
        TableComparer.Result check = TableComparer.compare(LocalServices.store(), "watchsource", LocalServices.store(),
                "watchcopy");
        assertThat(check.equal()).isTrue();
        Cli.Run unknown = Cli.run("status", "scan-20260101-000000-abcd", "--watch", "--kafka",
                LocalServices.broker().bootstrapServers());
        Cli.assertOneLine(unknown, UserError.NOT_FOUND, "no scan scan-20260101-000000-abcd");
    }

    @Test
    void aBrokerThatNeverAnswersIsWaitedForUpToTheLimitAndAHostThatDoesNotResolveNotAtAll() throws Exception {
        try (ChildProcesses children = new ChildProcesses("kafka-wait")) {
            for (String label : new String[] {"closed", "unresolved", "worker"}) {
                Files.deleteIfExists(children.log(label).toPath());
            }
            Map<String, String> env = new HashMap<>(Map.of("TABLESCAN_KAFKA_WAIT", "3s"));
            String closed = "127.0.0.1:" + FreePorts.find();
            Process start = children.start("closed", env, "status", "--kafka", closed);
            env.put("KAFKA_BOOTSTRAP_SERVERS", "nosuchhost.invalid:9092");
            Process unresolved = children.start("unresolved", env, "status");
            Process worker = children.start("worker", env, "worker", "copy");
            for (Process p : new Process[] {start, unresolved, worker}) {
                assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
                assertThat(p.exitValue()).isEqualTo(UserError.UNREACHABLE);
            }
            assertThat(children.output("closed")).contains("waiting up to 3 s for Kafka at " + closed)
                    .contains("tablescan: cannot reach Kafka at " + closed + " (waited 3 s; TABLESCAN_KAFKA_WAIT")
                    .doesNotContain("\tat ");
            assertThat(children.output("unresolved")).doesNotContain("waiting up to")
                    .contains("tablescan: cannot reach Kafka at nosuchhost.invalid:9092: host nosuchhost.invalid does "
                            + "not resolve");
            assertThat(children.output("worker")).contains("tablescan copy-worker: cannot reach Kafka at "
                    + "nosuchhost.invalid:9092: host nosuchhost.invalid does not resolve");
        }
    }
}
