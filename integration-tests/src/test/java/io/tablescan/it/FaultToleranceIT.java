package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.copy.CopyWorker;
import io.tablescan.discovery.DiscoveryWorker;
import io.tablescan.local.FreePorts;
import io.tablescan.partition.PartitionWorker;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.table.FaultInjectingTableStore.Faults;
import io.tablescan.table.FaultInjectingTableStore;
import io.tablescan.table.RetryPolicy;
import io.tablescan.spi.TableStore;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Storage faults, permanent errors, a broker restart and rebalance churn during copies: nothing lost. */
class FaultToleranceIT {
    static final TableStore STORE = LocalServices.store();
    /** Rows of each copy: a few thousand make hundreds of requests (the sample's partitions are small), so many faults. */
    static final int ROWS = 4_000;

    static ScanSpec spec(String source, String destination, int pageSize) {
        return ScanSpecs.copy().from(new TableRef("emulator", source)).to(new TableRef("emulator", destination))
                .pageSize(pageSize).strategy(ScanStrategy.PREFIX).build();
    }

    /** As above, reads capped at {@code rowsPerSecond}: a copy that lasts long enough to act on mid-copy, on a small table. */
    static ScanSpec capped(String source, String destination, int pageSize, long rowsPerSecond) {
        return ScanSpec.newBuilder(spec(source, destination, pageSize)).setLimits(Map.of("read", rowsPerSecond)).build();
    }

    static WorkerSettings settings(String bootstrap) {
        return WorkerSettings.local(bootstrap, new Accounts(name -> null).register("emulator", STORE));
    }

    /**
     * As above with a retry back-off of 20 ms to 1 s instead of 200 ms to 10 s: what is proven is that every failed
     * request is retried and counted, not how long the pauses are, and the default's pauses made most of the test's time.
     */
    static WorkerSettings quickRetries(String bootstrap) {
        return new WorkerSettings(KafkaSettings.of(bootstrap), new Accounts(name -> null).register("emulator", STORE), 32,
                new RetryPolicy(RetryPolicy.DEFAULT.maxAttempts(), Duration.ofMillis(20), Duration.ofSeconds(1)),
                Topics.LOCAL_PARTITIONS, Optional.empty());
    }

    static void assertExact(ScanTotals t, long rows, String source, String destination) {
        assertThat(t.state()).as(t.scanId() + " " + t.errors()).isEqualTo(ScanState.COMPLETED);
        assertThat(t.rowsRead()).isEqualTo(rows);
        assertThat(t.rowsWritten()).isEqualTo(rows);
        assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
        TableComparer.Result check = TableComparer.compare(STORE, source, STORE, destination);
        assertThat(check.examples()).isEmpty();
        assertThat(check.equal()).isTrue();
        assertThat(check.sourceRows()).isEqualTo(rows);
    }

    @Test
    void aCopyWithTenPercentOfRequestsFailingIsExactAndCountsItsRetries() {
        SampleTable.write(STORE, "faultsource", SampleTable.rows(ROWS), 16);
        String bootstrap = LocalServices.broker().bootstrapServers();
        long injectedBefore = FaultInjectingTableStore.injected();
        WorkerSettings faulty = quickRetries(bootstrap)
                .withFaults(new Faults(0.1, EnumSet.allOf(FaultInjectingTableStore.Kind.class), Duration.ofMillis(300)));
        ScanSpec spec = spec("faultsource", "faultcopy", 200);
        try (LocalPipeline pipeline = LocalPipeline.start(faulty)) {
            ScanStarter.start(KafkaSettings.of(bootstrap), spec);
            ScanTotals t = ScanAwait.ended(KafkaSettings.of(bootstrap), spec.getScanId(), Duration.ofMinutes(5));
            assertExact(t, ROWS, "faultsource", "faultcopy");
            long injected = FaultInjectingTableStore.injected() - injectedBefore;
            assertThat(injected).as("faults injected").isGreaterThan(50);
            assertThat(t.retries()).as("retries recorded by the ledger").isPositive();
            assertThat(t.throttles()).as("503s among them").isPositive();
            System.out.printf("faults: %d injected, %d requests retried (%d throttled), 0 rows lost%n", injected,
                    t.retries(), t.throttles());
        }
    }

    @Test
    void aPermanentErrorIsParkedWithItsReasonNotRetriedForever() {
        String bootstrap = LocalServices.broker().bootstrapServers();
        ScanSpec spec = spec("nosuchtable", "nosuchcopy", 100);
        try (LocalPipeline pipeline = LocalPipeline.start(settings(bootstrap))) {
            ScanStarter.start(KafkaSettings.of(bootstrap), spec);
            ScanTotals t = ScanAwait.ended(KafkaSettings.of(bootstrap), spec.getScanId(), Duration.ofMinutes(1));
            assertThat(t.state()).isEqualTo(ScanState.COMPLETED_WITH_FAILURES);
            assertThat(t.itemsFailed()).isEqualTo(1);
            // Retried, a 404 would spend the whole budget (maxAttempts - 1 retries). A transient hiccup of the shared
            // Azurite before it (a pooled connection it had closed: PrematureCloseException, seen in CI) is not a retried 404.
            assertThat(t.retries()).as("a 404 is not retried").isLessThan(RetryPolicy.DEFAULT.maxAttempts() - 1);
            assertThat(t.errors()).singleElement().satisfies(e -> assertThat(e).contains("404"));
        }
    }

    @Test
    void aBrokerRestartedMidCopyIsRejoinedByTheWorkersAndTheCopyIsExact() throws Exception {
        SampleTable.write(STORE, "restartbrokersource", SampleTable.rows(ROWS), 16);
        int port = FreePorts.find();
        String bootstrap = "127.0.0.1:" + port;
        String dir = Files.createTempDirectory("tablescan-broker-").toString();
        try (ChildProcesses children = new ChildProcesses("broker-restart")) {
            Process broker = startBroker(children, port, dir);
            // reads capped at 400 rows/s: a copy of about 10 s, so the broker stops mid-copy
            ScanSpec spec = capped("restartbrokersource", "restartbrokercopy", 100, 400);
            KafkaSettings kafka = KafkaSettings.of(bootstrap);
            try (LocalPipeline pipeline = LocalPipeline.start(settings(bootstrap))) {
                ScanStarter.start(kafka, spec);
                ScanTotals before = ScanAwait.until(kafka, spec.getScanId(), t -> t.rowsWritten() > 0, Duration.ofMinutes(2));
                assertThat(before.state()).isEqualTo(ScanState.RUNNING);

                broker.destroy(); // SIGTERM: a clean broker stop, like a rolling restart
                assertThat(broker.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                startBroker(children, port, dir);

                assertExact(ScanAwait.ended(kafka, spec.getScanId(), Duration.ofMinutes(5)), ROWS,
                        "restartbrokersource", "restartbrokercopy");
            }
        }
    }

    private static Process startBroker(ChildProcesses children, int port, String dir) {
        Process broker = children.start("broker", Map.of(), "broker", "--port", Integer.toString(port), "--dir", dir);
        // two minutes: on a loaded 2-core machine the restarted broker took more than one (seen twice)
        assertThat(FreePorts.await(() -> FreePorts.accepts(port), Duration.ofMinutes(2), broker::isAlive))
                .as("broker listening").isTrue();
        return broker;
    }

    @Tag("release") // default tier: KillMatrixIT's workers leave (SIGKILL, SIGTERM) and join (restarts) mid-scan
    @Test
    void workersJoiningAndLeavingEveryFewSecondsStillCopyExactly() throws Exception {
        SampleTable.write(STORE, "churnsource", SampleTable.rows(ROWS), 16);
        String bootstrap = LocalServices.broker().bootstrapServers();
        WorkerSettings settings = settings(bootstrap);
        List<Function<WorkerSettings, WorkerRuntime<?>>> kinds =
                List.of(DiscoveryWorker::create, PartitionWorker::create, CopyWorker::create);
        // reads capped at 400 rows/s: a copy of about 10 s, long enough for several joins and leaves
        ScanSpec spec = capped("churnsource", "churncopy", 100, 400);
        KafkaSettings kafka = KafkaSettings.of(bootstrap);
        List<WorkerRuntime<?>> extras = new ArrayList<>();
        Random random = new Random(11);
        int joins = 0;
        int leaves = 0;
        try (LocalPipeline pipeline = LocalPipeline.start(settings)) {
            ScanStarter.start(kafka, spec);
            ScanTotals t = ScanAwait.until(kafka, spec.getScanId(), s -> true, Duration.ofSeconds(30));
            while (!t.ended()) {
                if (extras.isEmpty() || extras.size() < 4 && random.nextBoolean()) {
                    WorkerRuntime<?> extra = kinds.get(random.nextInt(kinds.size())).apply(settings);
                    Thread.ofPlatform().daemon().start(extra);
                    extras.add(extra);
                    joins++;
                } else {
                    extras.remove(random.nextInt(extras.size())).close();
                    leaves++;
                }
                // the next change comes after 800 more rows written, or 2 s
                long rows = t.rowsWritten();
                t = ScanAwait.until(kafka, spec.getScanId(), s -> s.ended() || s.rowsWritten() > rows + 800,
                        Duration.ofSeconds(2));
            }
            extras.forEach(WorkerRuntime::close);
            assertThat(joins + leaves).as("membership changes").isGreaterThanOrEqualTo(3);
            assertExact(t, ROWS, "churnsource", "churncopy");
        }
    }
}
