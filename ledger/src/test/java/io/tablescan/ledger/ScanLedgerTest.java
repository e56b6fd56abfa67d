package io.tablescan.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.TableStoreException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ledger's topology on Kafka Streams' test driver: events in, one exact status per scan out. */
class ScanLedgerTest {
    static final KafkaSettings KAFKA = KafkaSettings.of("127.0.0.1:9");
    TopologyTestDriver driver;
    TestInputTopic<String, ScanEvent> events;
    TestOutputTopic<String, ScanStatus> statuses;
    java.nio.file.Path stateDir;

    @BeforeEach
    void start() throws Exception {
        stateDir = Files.createTempDirectory("ledger-test");
        var props = ScanLedger.properties(KAFKA, stateDir);
        driver = new TopologyTestDriver(ScanLedger.topology(KAFKA), props);
        events = driver.createInputTopic(Namespace.DEFAULT.scanEvents(), Serdes.String().serializer(),
                RecordSerde.of(ScanEvent.class, KAFKA).serializer());
        statuses = driver.createOutputTopic(Namespace.DEFAULT.scans(), Serdes.String().deserializer(),
                RecordSerde.of(ScanStatus.class, KAFKA).deserializer());
    }

    @AfterEach
    void stop() throws Exception {
        driver.close();
        try (var files = Files.walk(stateDir)) { // every test would leave a folder in /tmp otherwise
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static ScanSpec spec(String scanId) {
        return ScanSpec.newBuilder().setScanId(scanId).setSource(new TableRef("a", "Source"))
                .setDestination(new TableRef("a", "Dest")).setPageSize(10).setPageBudget(2).setCreatedAtMillis(1_000).build();
    }

    void send(ScanEvent event) {
        events.pipeInput(event.getScanId(), event);
    }

    static ScanEvent at(long millis, ScanEventBuilder builder) {
        ScanEvent event = builder.build();
        event.setTimeMillis(millis);
        return event;
    }

    static ItemHandler.Result rows(long read, long written) {
        return new ItemHandler.Result(List.of(), read, written, 1);
    }

    ScanStatus latest(String scanId) {
        Map<String, ScanStatus> map = statuses.readKeyValuesToMap();
        assertThat(map).containsKey(scanId);
        return map.get(scanId);
    }

    @Test
    void itsStoreIsBackedByTheChangelogALocalBrokerMakesBeforeIt() {
        send(at(1_000, new ScanEventBuilder("s0").started(spec("s0")).emitted(ItemKind.PREFIX_QUERY)));
        assertThat(driver.producedTopicNames()).contains(Namespace.DEFAULT.ledgerChangelog());
    }

    @Test
    void aScanIsCompleteExactlyWhenEveryEmittedItemIsDone() {
        send(at(1_000, new ScanEventBuilder("s1").started(spec("s1")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_000, new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0, rows(5, 0))
                .emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.PARTITION_QUERY)));
        assertThat(latest("s1").getState()).isEqualTo(ScanState.RUNNING);

        send(at(3_000, new ScanEventBuilder("s1").done(ItemKind.PARTITION_QUERY, 1, rows(3, 0)).emitted(ItemKind.ENTITY_BATCH)));
        send(at(4_000, new ScanEventBuilder("s1").done(ItemKind.ENTITY_BATCH, 1, rows(0, 5))));
        assertThat(latest("s1").getState()).isEqualTo(ScanState.RUNNING);
        send(at(7_000, new ScanEventBuilder("s1").done(ItemKind.ENTITY_BATCH, 2, rows(0, 3))));

        ScanStatus done = latest("s1");
        assertThat(done.getState()).isEqualTo(ScanState.COMPLETED);
        assertThat(done.getRowsRead()).isEqualTo(8);
        assertThat(done.getRowsWritten()).isEqualTo(8);
        assertThat(done.getDone().getEntityBatches()).isEqualTo(2);
        assertThat(done.getEndMillis()).isEqualTo(7_000L);
        assertThat(done.getRowsPerSecond()).as("8 rows in 6 s").isCloseTo(8 / 6.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void failuresEndTheScanWithFailuresAndARetryReopensIt() {
        send(at(1_000, new ScanEventBuilder("s2").started(spec("s2")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_000, new ScanEventBuilder("s2").done(ItemKind.PREFIX_QUERY, 0, rows(4, 0))
                .emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.ENTITY_BATCH)));
        send(at(3_000, new ScanEventBuilder("s2").done(ItemKind.ENTITY_BATCH, 1, rows(0, 2))
                .failed(ItemKind.ENTITY_BATCH, "TableStoreException: HTTP 403")));
        ScanStatus failed = latest("s2");
        assertThat(failed.getState()).isEqualTo(ScanState.COMPLETED_WITH_FAILURES);
        assertThat(failed.getFailed().getEntityBatches()).isEqualTo(1);
        assertThat(failed.getErrors()).containsExactly("TableStoreException: HTTP 403");

        send(at(9_000, new ScanEventBuilder("s2").retried(ItemKind.ENTITY_BATCH)));
        ScanStatus reopened = latest("s2");
        assertThat(reopened.getState()).isEqualTo(ScanState.RUNNING);
        assertThat(reopened.getFailed().getEntityBatches()).isZero();
        assertThat(reopened.getEndMillis()).isNull();

        send(at(9_500, new ScanEventBuilder("s2").done(ItemKind.ENTITY_BATCH, 1, rows(0, 2))));
        ScanStatus completed = latest("s2");
        assertThat(completed.getState()).isEqualTo(ScanState.COMPLETED);
        assertThat(completed.getRetriedItems()).isEqualTo(1);
        assertThat(completed.getRowsWritten()).isEqualTo(4);
    }

    @Test
    void aCancelledScanStaysCancelledWhileItsItemsAreSkipped() {
        send(at(1_000, new ScanEventBuilder("s3").started(spec("s3")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_000, new ScanEventBuilder("s3").done(ItemKind.PREFIX_QUERY, 0, rows(4, 0))
                .emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_500, new ScanEventBuilder("s3").cancelled()));
        assertThat(latest("s3").getState()).isEqualTo(ScanState.CANCELLED);

        send(at(3_000, new ScanEventBuilder("s3").skipped(ItemKind.ENTITY_BATCH).skipped(ItemKind.PREFIX_QUERY)));
        ScanStatus cancelled = latest("s3");
        assertThat(cancelled.getState()).isEqualTo(ScanState.CANCELLED);
        assertThat(cancelled.getSkipped().getEntityBatches()).isEqualTo(1);
        assertThat(io.tablescan.status.ScanFold.open(cancelled)).isZero();
        assertThat(cancelled.getEndMillis()).isEqualTo(2_500L);
    }

    @Test
    void scansOnTheSameTopicsAreCountedApart() {
        send(at(1_000, new ScanEventBuilder("a").started(spec("a")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(1_000, new ScanEventBuilder("b").started(spec("b")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_000, new ScanEventBuilder("a").done(ItemKind.PREFIX_QUERY, 0, rows(7, 0))));
        Map<String, ScanStatus> map = statuses.readKeyValuesToMap();
        assertThat(map.get("a").getState()).isEqualTo(ScanState.COMPLETED);
        assertThat(map.get("a").getRowsRead()).isEqualTo(7);
        assertThat(map.get("b").getState()).isEqualTo(ScanState.RUNNING);
        assertThat(map.get("b").getRowsRead()).isZero();
    }

    @Test
    void theRateShowsFromTheFirstSecondsNotOnlyAfterAFullWindow() {
        send(at(1_000, new ScanEventBuilder("r").started(spec("r")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(1_500, new ScanEventBuilder("r").done(ItemKind.PREFIX_QUERY, 0, rows(300, 0))
                .emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.PARTITION_QUERY)
                .emitted(ItemKind.PARTITION_QUERY)));
        send(at(3_000, new ScanEventBuilder("r").done(ItemKind.ENTITY_BATCH, 1, rows(0, 100))));
        ScanStatus early = latest("r");
        assertThat(early.getState()).isEqualTo(ScanState.RUNNING);
        assertThat(early.getRowsPerSecond()).as("100 rows written in the first 2 s").isCloseTo(50.0,
                org.assertj.core.data.Offset.offset(1e-9));

        send(at(7_000, new ScanEventBuilder("r").done(ItemKind.ENTITY_BATCH, 1, rows(0, 200))));
        assertThat(latest("r").getRowsPerSecond()).as("300 rows in 6 s").isCloseTo(50.0,
                org.assertj.core.data.Offset.offset(1e-9));
        send(at(12_000, new ScanEventBuilder("r").done(ItemKind.PARTITION_QUERY, 1, rows(0, 0))));
        assertThat(latest("r").getRowsPerSecond()).as("no rows in 5 s: 0 rows in the 5 s window since 7 s")
                .isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-9));
        send(at(13_000, new ScanEventBuilder("r").done(ItemKind.PARTITION_QUERY, 1, rows(0, 60))
                .emitted(ItemKind.ENTITY_BATCH)));
        assertThat(latest("r").getRowsPerSecond()).as("the next rows count at once: 60 rows in the 6 s since 7 s")
                .isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void writeRequestsAreCountedApartFromReads() {
        send(at(1_000, new ScanEventBuilder("w").started(spec("w")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_000, new ScanEventBuilder("w").done(ItemKind.PREFIX_QUERY, 0, new ItemHandler.Result(List.of(), 10, 0, 3))
                .emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.ENTITY_BATCH)));
        send(at(3_000, new ScanEventBuilder("w").done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 6, 1))
                .done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 4, 3))));
        ScanStatus done = latest("w");
        assertThat(done.getRequests()).isEqualTo(7);
        assertThat(done.getWriteRequests()).as("one per batch, two more to create the missing table").isEqualTo(4);
        var totals = new io.tablescan.status.ScanTotals("w", done);
        assertThat(totals.readRequests()).isEqualTo(3);
        assertThat(totals.writeRequests()).isEqualTo(4);
    }

    @Test
    void partitionsAreSummedFromTheItemsThatCountedThem() {
        send(at(1_000, new ScanEventBuilder("c").started(spec("c")).emitted(ItemKind.PREFIX_QUERY)));
        send(at(2_000, new ScanEventBuilder("c").done(ItemKind.PREFIX_QUERY, 0, new ItemHandler.Result(List.of(), 10, 0, 1, 4))
                .emitted(ItemKind.PARTITION_QUERY)));
        send(at(3_000, new ScanEventBuilder("c").done(ItemKind.PARTITION_QUERY, 1, new ItemHandler.Result(List.of(), 7, 0, 1, 0))));
        ScanStatus done = latest("c");
        assertThat(done.getState()).isEqualTo(ScanState.COMPLETED);
        assertThat(done.getRowsRead()).isEqualTo(17);
        assertThat(done.getPartitions()).as("the partition query went on with a partition counted already").isEqualTo(4);
    }
}
