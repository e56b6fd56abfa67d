package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.control.ScanStarter;
import io.tablescan.ledger.ScanLedger;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The ledger against a real broker and Azurite: concurrent scans kept apart, failures parked and retried,
 * cancel, and a ledger restart mid-scan. Every count asserted is exact.
 */
class LedgerIT {
    static final TableStore STORE = LocalServices.store();
    static final String BOOTSTRAP = LocalServices.broker().bootstrapServers();
    static final KafkaSettings KAFKA = KafkaSettings.of(BOOTSTRAP);

    static ScanSpec spec(String source, String destination, int pageSize) {
        return ScanSpecs.copy().from(new TableRef("src", source)).to(new TableRef("dst", destination))
                .pageSize(pageSize).strategy(ScanStrategy.PREFIX).build();
    }

    /** As above, reads capped at {@code rowsPerSecond}: a scan that lasts long enough to act on mid-scan, on a small table. */
    static ScanSpec capped(String source, String destination, int pageSize, long rowsPerSecond) {
        return ScanSpecs.copy().from(new TableRef("src", source)).to(new TableRef("dst", destination))
                .pageSize(pageSize).strategy(ScanStrategy.PREFIX).limits(Map.of("read", rowsPerSecond)).build();
    }

    static WorkerSettings settings(TableStore destination) {
        return WorkerSettings.local(BOOTSTRAP, new Accounts(name -> null).register("src", STORE).register("dst", destination));
    }

    static void assertExact(ScanTotals t, long rows, String source, String destination) {
        assertThat(t.state()).as(t.scanId()).isEqualTo(ScanState.COMPLETED);
        assertThat(t.rowsRead()).isEqualTo(rows);
        assertThat(t.rowsWritten()).isEqualTo(rows);
        assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
        assertThat(t.itemsFailed()).isZero();
        assertThat(TableComparer.compare(STORE, source, STORE, destination).equal()).isTrue();
    }

    @Test
    void twoConcurrentCopiesOverTheSameWorkersAreCountedApart() {
        SampleTable.write(STORE, "twinsourcea", SampleTable.rows(3_000), 8);
        SampleTable.write(STORE, "twinsourceb", SampleTable.rows(5_000).subList(1_000, 5_000), 8);
        try (LocalPipeline pipeline = LocalPipeline.start(settings(STORE))) {
            ScanSpec a = spec("twinsourcea", "twincopya", 200);
            ScanSpec b = spec("twinsourceb", "twincopyb", 300);
            ScanStarter.start(KAFKA, a);
            ScanStarter.start(KAFKA, b);

            assertExact(ScanAwait.ended(KAFKA, a.getScanId(), Duration.ofMinutes(3)), 3_000, "twinsourcea", "twincopya");
            assertExact(ScanAwait.ended(KAFKA, b.getScanId(), Duration.ofMinutes(3)), 4_000, "twinsourceb", "twincopyb");
        }
        Cli.Run status = Cli.run("status", "--kafka", BOOTSTRAP);
        assertThat(status.exitCode()).isZero();
        assertThat(status.out()).contains("COMPLETED").contains("twinsourcea -> twincopya").contains("twinsourceb -> twincopyb");
    }

    @Test
    void rejectedRowsEndTheScanWithFailuresAndARetryAfterTheFixCompletesIt() {
        SampleTable.write(STORE, "rejectsource", SampleTable.rows(2_000), 8);
        // The destination's key is wrong: every write gets 403, which is permanent, so every batch is parked.
        String wrongKey = LocalServices.azurite().connectionString()
                .replaceAll("AccountKey=[^;]+", "AccountKey=" + java.util.Base64.getEncoder().encodeToString(new byte[64]));
        ScanSpec spec = spec("rejectsource", "rejectcopy", 250);
        ScanTotals failed;
        try (LocalPipeline pipeline = LocalPipeline.start(settings(AzureTableStore.fromConnectionString(wrongKey)))) {
            ScanStarter.start(KAFKA, spec);
            failed = ScanAwait.ended(KAFKA, spec.getScanId(), Duration.ofMinutes(3));
        }
        assertThat(failed.state()).isEqualTo(ScanState.COMPLETED_WITH_FAILURES);
        assertThat(failed.rowsRead()).isEqualTo(2_000);
        assertThat(failed.rowsWritten()).isZero();
        long batches = failed.status().getEmitted().getEntityBatches();
        assertThat(failed.itemsFailed()).as("every batch failed, nothing else").isEqualTo(batches).isPositive();
        assertThat(failed.itemsDone() + failed.itemsFailed()).isEqualTo(failed.itemsEmitted());
        assertThat(failed.errors()).anySatisfy(e -> assertThat(e).contains("403"));
        assertThat(String.join(" ", failed.errors())).doesNotContain("AccountKey");

        Cli.Run failures = Cli.run("failures", spec.getScanId(), "--kafka", BOOTSTRAP);
        assertThat(failures.exitCode()).as(failures.err()).isZero();
        assertThat(failures.out()).contains(batches + " failed items parked, " + batches + " not retried yet")
                .contains("tablescan.entity-batches").contains("403");

        try (LocalPipeline fixed = LocalPipeline.start(settings(STORE))) {
            Cli.Run retry = Cli.run("retry", spec.getScanId(), "--kafka", BOOTSTRAP, "--wait");
            assertThat(retry.exitCode()).as(retry.out() + retry.err()).isZero();
            assertThat(retry.out()).contains("re-submitted " + batches + " failed items").contains("completed");
        }
        ScanTotals retried = ScanAwait.ended(KAFKA, spec.getScanId(), Duration.ofSeconds(30));
        assertExact(retried, 2_000, "rejectsource", "rejectcopy");
        assertThat(retried.itemsRetried()).isEqualTo(batches);

        Cli.Run again = Cli.run("retry", spec.getScanId(), "--kafka", BOOTSTRAP);
        assertThat(again.out()).as("nothing is re-submitted twice").contains("re-submitted 0 failed items");
    }

    @Test
    void aCancelledScanIsSkippedByTheWorkersAndRecordedAsCancelled() {
        SampleTable.write(STORE, "cancelsource", SampleTable.rows(3_000), 16);
        // small pages: many items; capped at 300 rows/s, a scan of 10 s that the cancel lands in
        ScanSpec spec = capped("cancelsource", "cancelcopy", 20, 300);
        try (LocalPipeline pipeline = LocalPipeline.start(settings(STORE))) {
            ScanStarter.start(KAFKA, spec);
            ScanTotals running = ScanAwait.until(KAFKA, spec.getScanId(), t -> t.rowsWritten() > 0, Duration.ofMinutes(2));
            assertThat(running.state()).isEqualTo(ScanState.RUNNING);

            Cli.Run cancel = Cli.run("cancel", spec.getScanId(), "--kafka", BOOTSTRAP);
            assertThat(cancel.exitCode()).as(cancel.err()).isZero();

            ScanTotals drained = ScanAwait.until(KAFKA, spec.getScanId(), t -> t.ended() && t.openItems() == 0,
                    Duration.ofMinutes(2));
            assertThat(drained.state()).isEqualTo(ScanState.CANCELLED);
            assertThat(drained.itemsSkipped()).isPositive();
            assertThat(drained.itemsDone() + drained.itemsSkipped()).isEqualTo(drained.itemsEmitted());
            assertThat(drained.rowsWritten()).isLessThan(3_000);
        }
        Cli.Run status = Cli.run("status", spec.getScanId(), "--kafka", BOOTSTRAP);
        assertThat(status.out()).contains("was cancelled");
        assertThat(Cli.run("cancel", spec.getScanId(), "--kafka", BOOTSTRAP).out()).contains("nothing to cancel");
    }

    @Test
    void aLedgerRestartedMidScanStillEndsWithExactCounts() {
        SampleTable.write(STORE, "restartsource", SampleTable.rows(3_000), 16);
        // capped at 300 rows/s: about 10 s of scan, so the ledger stops and a second one starts mid-scan
        ScanSpec spec = capped("restartsource", "restartcopy", 100, 300);
        try (LocalPipeline workers = LocalPipeline.start(settings(STORE), false)) {
            ScanTotals midway;
            try (ScanLedger first = ScanLedger.start(KAFKA)) {
                ScanStarter.start(KAFKA, spec);
                midway = ScanAwait.until(KAFKA, spec.getScanId(), t -> t.rowsWritten() > 0, Duration.ofMinutes(2));
            }
            assertThat(midway.state()).isEqualTo(ScanState.RUNNING);
            try (ScanLedger second = ScanLedger.start(KAFKA)) {
                ScanTotals ended = ScanAwait.ended(KAFKA, spec.getScanId(), Duration.ofMinutes(3));
                assertExact(ended, 3_000, "restartsource", "restartcopy");
                // The only instance holds every partition: its store answers with the same record.
                assertThat(second.status(spec.getScanId())).hasValueSatisfying(
                        s -> assertThat(s.getRowsWritten()).isEqualTo(3_000));
            }
        }
    }

    @Test
    void unknownScanIdsGetOneLineAndExitFour() {
        for (String command : new String[] {"status", "failures", "retry", "cancel"}) {
            Cli.Run run = Cli.run(command, "no-such-scan", "--kafka", BOOTSTRAP);
            assertThat(run.exitCode()).as(command).isEqualTo(UserError.NOT_FOUND);
            assertThat(run.err().strip()).as(command).isEqualTo("tablescan: no scan no-such-scan in the ledger "
                    + "(wrong id, or no ledger running?)");
        }
    }

    @Test
    void aScanThatEndsLeavesTheLedgerAtOnceNotAtItsNextCommit() throws InterruptedException {
        // Statuses leave the ledger when it commits: with a minute between its commits, only the commit that a
        // scan's end asks for brings the completed status within the 20 s this waits.
        KafkaSettings kafka = KafkaSettings.of(BOOTSTRAP, Map.of("KAFKA_COMMIT_INTERVAL_MS", "60000",
                        "KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS", "120000")) // Streams: no less than the interval
                .withNamespace(Namespace.of("endcommit"));
        try (Admin admin = kafka.newAdmin()) {
            Topics.ensure(admin, kafka.namespace(), 1, Optional.empty(), Duration.ofSeconds(60));
        }
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("src", "endsource")).to(new TableRef("dst", "endcopy")).build();
        try (ScanLedger ledger = ScanLedger.start(kafka)) {
            assertThat(ledger.awaitRunning(Duration.ofMinutes(1))).isTrue();
            ScanStarter.start(kafka, spec); // the scan's start and its root item
            ScanEvent rootDone = new ScanEventBuilder(spec.getScanId())
                    .done(ItemKind.PREFIX_QUERY, 0, new ItemHandler.Result(List.of(), 0, 0, 1)).build();
            String events = kafka.namespace().scanEvents();
            try (Producer<byte[], byte[]> producer = kafka.newProducer(kafka.namespace().group("endcommit-test"))) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(events, spec.getScanId().getBytes(StandardCharsets.UTF_8),
                        kafka.valueSerializer().serialize(events, rootDone)));
                producer.commitTransaction();
            }
            assertThat(ScanAwait.ended(kafka, spec.getScanId(), Duration.ofSeconds(20)).state())
                    .isEqualTo(ScanState.COMPLETED);
        }
    }
}
