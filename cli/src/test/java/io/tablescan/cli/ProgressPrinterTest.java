package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.TableStoreException;
import io.tablescan.status.ScanFold;
import io.tablescan.status.ScanTotals;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** What the person at the terminal sees while a scan runs and when it ends, on a fake clock. */
class ProgressPrinterTest {
    static final long T0 = 1_000_000;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicLong now = new AtomicLong(T0);

    ProgressPrinter printer(boolean terminal) {
        return new ProgressPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), terminal, now::get);
    }

    String out() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    static ScanSpec spec() {
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("source", "Packages"))
                .to(new TableRef("destination", "PackagesCopy")).pageSize(1000).strategy(ScanStrategy.PREFIX).build();
        spec.setScanId("s1");
        spec.setCreatedAtMillis(T0);
        return spec;
    }

    static ScanEvent at(long millis, ScanEventBuilder builder) {
        ScanEvent event = builder.build();
        event.setTimeMillis(millis);
        return event;
    }

    /** A scan seeded at T0: the root read 1,000 rows in 41 pages, then 13 entity batches of 10 partitions. */
    static ScanStatus running() {
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(spec()).emitted(ItemKind.PREFIX_QUERY)));
        ScanEventBuilder root = new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 1_000, 0, 41));
        for (int i = 0; i < 13; i++) {
            root.emitted(ItemKind.ENTITY_BATCH);
        }
        s = ScanFold.apply(s, at(T0 + 500, root));
        ScanEventBuilder writes = new ScanEventBuilder("s1");
        for (int i = 0; i < 8; i++) {
            writes.done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 60, 1));
        }
        return ScanFold.apply(s, at(T0 + 2_000, writes));
    }

    static ScanStatus completed(ScanStatus running) {
        ScanEventBuilder writes = new ScanEventBuilder("s1");
        for (int i = 0; i < 5; i++) {
            writes.done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 104, 1));
        }
        return ScanFold.apply(running, at(T0 + 3_000, writes));
    }

    @Test
    void theBarEndsAt100PercentBeforeTheSummaryOfACompletedScan() {
        ProgressPrinter printer = printer(true);
        ScanStatus running = running();
        printer.progress(new ScanTotals("s1", running));
        assertThat(out()).contains("64%"); // 9 of 14 items

        int code = printer.summary(new ScanTotals("s1", completed(running)));

        assertThat(code).isZero();
        String out = out();
        String lastFrame = out.substring(out.lastIndexOf('\r'), out.indexOf("scan s1 completed"));
        assertThat(lastFrame).contains("[########################] 100%").contains("1,000 rows").endsWith("\n");
    }

    /** A count seeded at T0: the root read 1,237 rows, whose first rows of 412 partitions; a partition query failed or not. */
    static ScanTotals count(boolean failed) {
        ScanSpec spec = ScanSpecs.count().from(new TableRef("source", "Packages")).build();
        spec.setScanId("c1");
        spec.setCreatedAtMillis(T0);
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("c1").started(spec).emitted(ItemKind.PREFIX_QUERY)));
        ScanEventBuilder root = new ScanEventBuilder("c1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 1_237, 0, 3, 412)).emitted(ItemKind.PARTITION_QUERY);
        s = ScanFold.apply(s, at(T0 + 500, root));
        ScanEventBuilder rest = failed ? new ScanEventBuilder("c1").failed(ItemKind.PARTITION_QUERY, "boom")
                : new ScanEventBuilder("c1").done(ItemKind.PARTITION_QUERY, 1, new ItemHandler.Result(List.of(), 0, 0, 1));
        return new ScanTotals("c1", ScanFold.apply(s, at(T0 + 1_000, rest)));
    }

    @Test
    void aCountEndsWithItsResultExactOnlyWhenCompleted() {
        assertThat(printer(false).summary(count(false))).isZero();
        assertThat(out()).contains("scan c1 completed", "  table:         source/Packages")
                .doesNotContain("rows written", "next --since", "writes").endsWith("1,237 rows in 412 partitions\n");
        assertThat(CountCommand.json(count(false))).isEqualTo("{\"scanId\":\"c1\",\"table\":\"Packages\","
                + "\"state\":\"COMPLETED\",\"exact\":true,\"rows\":1237,\"partitions\":412}");

        bytes.reset();
        assertThat(printer(false).summary(count(true))).isEqualTo(UserError.FAILED);
        assertThat(out()).contains("1 failed item: fix the cause (errors above), then count again")
                .endsWith("not exact (the count did not complete): at least 1,237 rows in 412 partitions\n");
        assertThat(ProgressPrinter.plural(1, "partition")).isEqualTo("1 partition");
    }

    @Test
    void aRateShowsFromTheFirstSecondsOfACopy() {
        printer(false).progress(new ScanTotals("s1", running()));
        assertThat(out()).as("480 rows written 2 s after the seed").contains("480 rows, 240 rows/s");
    }

    /** {@link #running()} with {@code rows} more rows written by {@code millis} after T0, and the ledger's rate. */
    static ScanStatus writtenBy(long millis, long rows, double ledgerRate) {
        ScanStatus s = ScanFold.apply(running(), at(T0 + millis, new ScanEventBuilder("s1").done(ItemKind.ENTITY_BATCH,
                1, new ItemHandler.Result(List.of(), 0, rows, 1))));
        s.setRowsPerSecond(ledgerRate);
        return s;
    }

    @Test
    void theRateIsOfTheRowsThisProcessSawDoneInTheLastSecondsNotTheLedgersBurstyWindow() {
        ProgressPrinter printer = printer(false);
        // Under --max-rate 500 the rows come in bursts; the ledger's window of event times said 1,264 rows/s.
        for (int second = 2; second <= 12; second += 5) {
            now.set(T0 + second * 1000);
            printer.progress(new ScanTotals("s1", writtenBy(second * 1000, (second - 2) * 500L, 1_264)));
        }
        assertThat(out().lines().toList().get(2)).contains("5,480 rows, 500 rows/s,").doesNotContain("1,264");
    }

    @Test
    void aResumedJobCountsTheTimeItRanAndThisRunsRate() {
        ScanStatus stopped = running(); // a copy that ran 2 s, killed, rerun 10 minutes later
        stopped.setRowsPerSecond(240);
        ProgressPrinter printer = printer(false);
        now.set(T0 + 600_000);
        printer.resuming("resuming scan s1: 480 rows already done");
        now.set(T0 + 601_000);
        printer.progress(new ScanTotals("s1", stopped)); // the ledger has not taken the resume in yet
        ScanStatus resumed = ScanFold.apply(stopped, at(T0 + 600_500, new ScanEventBuilder("s1").resumed()));
        now.set(T0 + 606_000);
        printer.progress(new ScanTotals("s1", resumed));
        ScanStatus moving = ScanFold.apply(resumed, at(T0 + 608_000, new ScanEventBuilder("s1")
                .done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 100, 1))));
        now.set(T0 + 611_000);
        printer.progress(new ScanTotals("s1", moving));
        List<String> lines = out().lines().toList();
        assertThat(lines.get(1)).as("the stopped run's 2 s, not its stale rate").endsWith("480 rows, 0 rows/s, "
                + "5 open items, 0 failed, 0:02");
        assertThat(lines.get(2)).endsWith("480 rows, 0 rows/s, 5 open items, 0 failed, 0:07"); // 2 s + 5.5 s
        assertThat(lines.get(3)).endsWith("580 rows, 20 rows/s, 4 open items, 0 failed, 0:12"); // 100 rows in 5 s
    }

    @Test
    void aPlainLineSaysWhatTheBarShows() {
        printer(false).progress(new ScanTotals("s1", running()));
        assertThat(out()).as("1 root and 8 of 13 batches done").startsWith("  9 of 14 items done (64%), 480 rows,");
    }

    /** {@link #running()} 5 s later: 2 more batches of 60 rows written. */
    static ScanStatus later(ScanStatus running) {
        ScanEventBuilder writes = new ScanEventBuilder("s1");
        for (int i = 0; i < 2; i++) {
            writes.done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 60, 1));
        }
        return ScanFold.apply(running, at(T0 + 7_000, writes));
    }

    @Test
    void anImportShowsItsRowsOfTheTotalAndOnceItsRateIsKnownTheTimeLeft() {
        ProgressPrinter printer = printer(false).expecting(2_000);
        now.set(T0 + 2_000);
        printer.progress(new ScanTotals("s1", running()));
        now.set(T0 + 7_000);
        printer.progress(new ScanTotals("s1", later(running())));
        List<String> lines = out().lines().toList();
        assertThat(lines.get(0)).contains("480 of 2,000 rows, ").doesNotContain("left");
        // 120 rows in 5 s: 24 rows/s, 1,400 rows to go
        assertThat(lines.get(1)).contains("600 of 2,000 rows, ").endsWith(", about 0:59 left");
        printer.summary(new ScanTotals("s1", completed(later(running()))));
        assertThat(out().lines().skip(2).toList()).noneMatch(line -> line.contains(" left"));
    }

    @Test
    void anExportEstimatesItsTimeLeftOnlyFromAPreviousExport() {
        ProgressPrinter printer = printer(false).intoPrivateTopic("export to /backups/27", true)
                .estimating(java.util.Optional.of(new PreviousExport(java.nio.file.Path.of("/backups/26"), 2_000)));
        printer.progressHeader(spec());
        now.set(T0 + 2_000);
        printer.progress(new ScanTotals("s1", running()));
        now.set(T0 + 7_000);
        printer.progress(new ScanTotals("s1", later(running())));
        assertThat(out()).contains("  time left estimated for 2,000 rows, as many as the export in /backups/26 holds\n")
                .contains(" 600 rows, ").doesNotContain("of 2,000").contains(", about 0:59 left");

        ProgressPrinter none = printer(false).estimating(java.util.Optional.empty());
        bytes.reset();
        none.progress(new ScanTotals("s1", running()));
        now.set(T0 + 12_000);
        none.progress(new ScanTotals("s1", later(running())));
        assertThat(out()).doesNotContain(" left").doesNotContain("estimated");
    }

    @Test
    void aClustersImportIsKnownByItsJobOptionsAndRowsReadAtTheStart() {
        ScanStatus s = running();
        s.getSpec().getJob().getOptions().put("import.from", "/backups/26");
        s.setRowsRead(5_000);
        printer(false).progress(new ScanTotals("s1", s));
        assertThat(out()).contains("480 of 5,000 rows, ");
    }

    @Test
    void theOpeningLineShowsTheSelection() {
        ScanSpec spec = spec();
        spec.setLowerPartition("a");
        spec.setRowFilter("Size gt 1");
        spec.setSelect(List.of("Size", "Name"));
        printer(false).progressHeader(spec);
        assertThat(out()).isEqualTo("scan s1: Packages -> PackagesCopy, page size 1000; partitions from \"a\" to the end; "
                + "filter Size gt 1; columns Size,Name\n");
    }

    @Test
    void aCompleteScanOfNoRowSaysWhy() {
        ScanSpec filtered = spec();
        filtered.setRowFilter("Size gt 1");
        for (ScanSpec spec : List.of(spec(), filtered)) {
            ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(spec).emitted(ItemKind.PREFIX_QUERY)));
            s = ScanFold.apply(s, at(T0 + 500, new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0,
                    new ItemHandler.Result(List.of(), 0, 0, 1))));
            assertThat(printer(false).summary(new ScanTotals("s1", s))).isZero();
        }
        assertThat(out()).contains("  no rows:       the source table is empty\n",
                "  no rows:       no row of the source matches the selection (filter Size gt 1)\n",
                "items:         1 prefix query, 0 partition queries, 0 entity batches", "1 read of the source, 0 writes");
    }

    /** A scan whose only item failed (an alias the workers do not know) never read the table: no "empty" line. */
    @Test
    void aScanWhoseItemsFailedDoesNotSayTheSourceIsEmpty() {
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(spec()).emitted(ItemKind.PREFIX_QUERY)));
        s = ScanFold.apply(s, at(T0 + 500, new ScanEventBuilder("s1").failed(ItemKind.PREFIX_QUERY,
                "UnknownAccountException: unknown account alias 'ghost'")));
        assertThat(printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092")).summary(new ScanTotals("s1", s)))
                .isEqualTo(UserError.FAILED);
        assertThat(out()).contains("completed with 1 failed item").doesNotContain("no rows:")
                .contains("1 failed item is parked: see `tablescan failures s1 --kafka kafka1:9092`, then after fixing "
                        + "the cause `tablescan retry s1 --kafka kafka1:9092 --wait`");
    }

    /** The items line counts the entity batches that failed for good with those done, as status and failures do. */
    @Test
    void theItemsLineCountsFailedEntityBatches() {
        ScanEventBuilder failures = new ScanEventBuilder("s1");
        for (int i = 0; i < 5; i++) {
            failures.failed(ItemKind.ENTITY_BATCH, "HTTP 403 AuthorizationFailure on table PackagesCopy");
        }
        ScanStatus s = ScanFold.apply(running(), at(T0 + 3_000, failures));

        assertThat(printer(false).summary(new ScanTotals("s1", s))).isEqualTo(UserError.FAILED);
        assertThat(out()).contains("items:         1 prefix query, 0 partition queries, 13 entity batches (5 failed) "
                + "(deepest chain 1)").contains("open items:    0 of 14 emitted; 5 failed, 0 skipped, 0 retried");
    }

    @Test
    void theSummaryTellsReadsFromWrites() {
        printer(false).summary(new ScanTotals("s1", completed(running())));
        assertThat(out()).contains("requests:      41 reads of the source, 13 writes to the destination;")
                .doesNotContain("table reads");
    }

    @Test
    void aDeletesSummaryCountsItsDeleteRequestsAndADryRunSendsNone() {
        for (boolean dryRun : List.of(false, true)) {
            ScanSpec spec = ScanSpecs.of(io.tablescan.job.Jobs.named("delete"), dryRun
                    ? java.util.Map.of("all", "true", "dry-run", "true") : java.util.Map.of("all", "true"))
                    .from(new TableRef("source", "Packages")).pageSize(1000).strategy(ScanStrategy.PREFIX).build();
            spec.setScanId("d1");
            ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("d1").started(spec).emitted(ItemKind.PREFIX_QUERY)));
            ScanEventBuilder read = new ScanEventBuilder("d1").done(ItemKind.PREFIX_QUERY, 0,
                    new ItemHandler.Result(List.of(), 250, 0, 1));
            ScanEventBuilder deleted = new ScanEventBuilder("d1");
            if (!dryRun) {
                for (int i = 0; i < 3; i++) { // 100 + 100 + 50 rows, one $batch each
                    read.emitted(ItemKind.ENTITY_BATCH);
                    deleted.done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, 0, 1, 0,
                            java.util.Map.of(io.tablescan.status.Counters.DELETED, i < 2 ? 100L : 50L)));
                }
            }
            s = ScanFold.apply(ScanFold.apply(s, at(T0 + 500, read)), at(T0 + 900, deleted));
            bytes.reset();
            printer(false).summary(new ScanTotals("d1", s));
            assertThat(out()).contains(dryRun ? "requests:      1 read of the source; 0 retried"
                    : "requests:      1 read of the source, 3 delete requests to the source; 0 retried");
        }
    }

    @Test
    void aTopicsSummarySaysTheRecordsItGotNotWrites() {
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("source", "Packages"))
                .sink(new io.tablescan.spi.SinkRef(TargetOptions.TOPIC, null, "rows", java.util.Map.of()))
                .pageSize(1000).strategy(ScanStrategy.PREFIX).build();
        spec.setScanId("s1");
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(spec).emitted(ItemKind.PREFIX_QUERY)));
        s = ScanFold.apply(s, at(T0 + 500, new ScanEventBuilder("s1").emitted(ItemKind.ENTITY_BATCH)
                .done(ItemKind.PREFIX_QUERY, 0, new ItemHandler.Result(List.of(), 7, 0, 1))));
        s = ScanFold.apply(s, at(T0 + 900, new ScanEventBuilder("s1").done(ItemKind.ENTITY_BATCH, 1,
                new ItemHandler.Result(List.of(), 0, 7, 0))));
        printer(false).summary(new ScanTotals("s1", s));
        assertThat(out()).contains("requests:      1 read of the source, 7 records to the topic;")
                .doesNotContain("writes to the destination");
    }

    @Test
    void aScanIntoAPrivateTopicIsNamedByItsPurpose() {
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("source", "Packages"))
                .sink(new io.tablescan.spi.SinkRef(TargetOptions.TOPIC, null, "tablescan-verify-s1", java.util.Map.of()))
                .pageSize(1000).strategy(ScanStrategy.PREFIX).build();
        spec.setScanId("s1");
        ProgressPrinter printer = printer(false).intoPrivateTopic("compared with the export in /backups/p", false);
        printer.progressHeader(spec);
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(spec).emitted(ItemKind.PREFIX_QUERY)));
        s = ScanFold.apply(s, at(T0 + 500, new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 7, 7, 1))));
        assertThat(printer.summary(new ScanTotals("s1", s))).isZero();
        assertThat(out()).contains("scan s1: Packages -> compared with the export in /backups/p, page size 1000",
                "  tables:        source/Packages -> compared with the export in /backups/p\n",
                "1 read of the source, 7 rows staged in Kafka;").doesNotContain("tablescan-verify-s1", "next --since");
    }

    @Test
    void theClockRunsWhileNoLedgerRecordsTheScanAndWhileNoEventComes() {
        ProgressPrinter printer = printer(false);
        ProgressPrinter onACluster = printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092"));
        now.set(T0 + 12_000);
        printer.progress(new ScanTotals("s1", null));
        // The ledger is this process's own, just starting: no "waiting for a ledger".
        assertThat(out()).contains("starting scan s1... 0:12").doesNotContain("waiting for a ledger");
        bytes.reset();
        onACluster.progress(new ScanTotals("s1", null));
        assertThat(out()).contains("waiting for a ledger to record scan s1... 0:12");

        now.set(T0 + 65_000); // the last event came 2 s after the seed; a minute later nothing more came
        printer.progress(new ScanTotals("s1", running()));
        assertThat(out()).contains(", 1:05");
    }

    @Test
    void onAClusterAMissingLedgerIsNamedOnceAfterAWhile() {
        ProgressPrinter printer = printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092"));
        ScanTotals unknown = new ScanTotals("s1", null);
        now.set(T0 + 19_000);
        printer.progress(unknown);
        assertThat(out()).doesNotContain("no ledger");
        now.set(T0 + 20_000);
        printer.progress(unknown);
        now.set(T0 + 25_000);
        printer.progress(unknown);

        assertThat(out()).contains("no ledger has recorded scan s1 in 20 s: is one running?")
                .contains("`./tablescan ledger --kafka kafka1:9092`");
        assertThat(out().split("no ledger has recorded", -1)).as("said once").hasSize(2);
    }

    @Test
    void onAClusterAScanThatStopsMovingNamesTheWorkers() {
        ProgressPrinter printer = printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092"));
        ScanTotals stuck = new ScanTotals("s1", running());
        now.set(T0 + 5_000);
        printer.progress(stuck);
        now.set(T0 + 34_000);
        printer.progress(stuck);
        assertThat(out()).doesNotContain("are workers running");
        now.set(T0 + 35_000);
        printer.progress(stuck);
        assertThat(out()).contains("no item of scan s1 has finished in 30 s: are workers running?")
                .contains("KAFKA_BOOTSTRAP_SERVERS=kafka1:9092 ./tablescan worker discovery");
    }

    @Test
    void aLocalCopyNeverSuggestsStartingWorkers() {
        ProgressPrinter printer = printer(false).hints(ProgressPrinter.Hints.local());
        now.set(T0 + 120_000);
        printer.progress(new ScanTotals("s1", null));
        printer.progress(new ScanTotals("s1", running()));
        assertThat(out()).doesNotContain("is one running").doesNotContain("are workers running");
    }

    static ScanTotals failed() {
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(spec()).emitted(ItemKind.PREFIX_QUERY)));
        s = ScanFold.apply(s, at(T0 + 500, new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 10, 0, 1)).emitted(ItemKind.ENTITY_BATCH)));
        return new ScanTotals("s1", ScanFold.apply(s, at(T0 + 900, new ScanEventBuilder("s1")
                .failed(ItemKind.ENTITY_BATCH, "TableStoreException: HTTP 403"))));
    }

    /**
     * running() cancelled at 4 s, its 5 open batches skipped at 8 s and 14 s (the first of them had failed before
     * the cancel when {@code withAFailedItem}).
     */
    static ScanTotals cancelled(boolean withAFailedItem) {
        ScanStatus s = ScanFold.apply(running(), at(T0 + 4_000, new ScanEventBuilder("s1").cancelled()));
        ScanEventBuilder first = new ScanEventBuilder("s1").skipped(ItemKind.ENTITY_BATCH);
        if (withAFailedItem) {
            first.failed(ItemKind.ENTITY_BATCH, "TableStoreException: HTTP 403");
        } else {
            first.skipped(ItemKind.ENTITY_BATCH);
        }
        s = ScanFold.apply(s, at(T0 + 8_000, first));
        ScanEventBuilder rest = new ScanEventBuilder("s1");
        for (int i = 0; i < 3; i++) {
            rest.skipped(ItemKind.ENTITY_BATCH);
        }
        return new ScanTotals("s1", ScanFold.apply(s, at(T0 + 14_000, rest)));
    }

    @Test
    void aCancelledScansStatusShowsItsAverageAndOffersNoRetry() {
        int code = printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092")).summary(cancelled(false));

        assertThat(code).isEqualTo(UserError.CANCELLED);
        assertThat(out()).contains("scan s1 was cancelled\n")
                .contains("duration:      4.0 s")
                // 480 rows written in the 4 s to the cancel, as its duration says: not the last seconds' 0, nor over
                // the 14 s its skipped items drained for
                .contains("rows/s:        120 (average)")
                .contains("next --since:  none: the scan was cancelled; start it again: the run that completes "
                        + "prints it")
                .doesNotContain("retry");

        bytes.reset(); // its failed items are parked, but retry refuses a cancelled scan
        printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092")).summary(cancelled(true));
        assertThat(out()).contains("1 failed item is parked: see `tablescan failures s1 --kafka kafka1:9092`; the "
                + "scan was cancelled, so it cannot be retried: after fixing the cause, start the scan again")
                .doesNotContain("tablescan retry").doesNotContain("retry the failed items");
    }

    @Test
    void aRunningScanOnAClusterIsStillRunningAndOneInAStoppedProcessDidNotComplete() {
        printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092")).summary(new ScanTotals("s1", running()));
        assertThat(out()).startsWith("scan s1 is still running (5 open items)").doesNotContain("did NOT complete");

        bytes.reset();
        printer(false).hints(ProgressPrinter.Hints.local()).summary(new ScanTotals("s1", running()));
        assertThat(out()).startsWith("scan s1 did NOT complete (5 open items)");
    }

    @Test
    void afterACopyOnTheEmbeddedBrokerTheHintIsToRunItAgain() {
        int code = printer(false).hints(ProgressPrinter.Hints.local()).summary(failed());
        assertThat(code).isEqualTo(UserError.FAILED);
        assertThat(out()).contains("1 failed item: fix the cause (errors above), then run the same copy again: it is "
                + "idempotent").doesNotContain("tablescan failures").doesNotContain("tablescan retry");
    }

    @Test
    void onlyACopyCompletedWithNoFailedItemPrintsTheNextSince() {
        printer(false).summary(new ScanTotals("s1", completed(running())));
        assertThat(out()).contains("next --since:  1970-01-01T00:01:40Z");

        bytes.reset();
        printer(false).summary(failed());
        assertThat(out()).contains("next --since:  none: not every row was copied; run the same command again: the "
                + "run that completes prints it").doesNotContain("1970-");

        bytes.reset();
        printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092")).summary(failed());
        assertThat(out()).contains("next --since:  none: not every row was copied; retry the failed items");

        bytes.reset();
        ScanSpec mirror = ScanSpec.newBuilder(spec()).setMirror(true).build(); // takes no --since
        ScanStatus s = completed(running());
        s.setSpec(mirror);
        printer(false).summary(new ScanTotals("s1", s));
        assertThat(out()).contains("scan s1 completed").doesNotContain("next --since");
    }

    @Test
    void aVerifyCountsReadsOfBothTablesAndAReadOnlyScanWritesNoRows() {
        ScanSpec verify = ScanSpecs.verify().from(new TableRef("source", "Packages"))
                .to(new TableRef("destination", "PackagesCopy")).pageSize(1000).strategy(ScanStrategy.PREFIX).build();
        verify.setScanId("s1");
        ScanStatus s = ScanFold.apply(null, at(T0, new ScanEventBuilder("s1").started(verify).emitted(ItemKind.PREFIX_QUERY)));
        s = ScanFold.apply(s, at(T0 + 500, new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 7, 0, 2))));
        printer(false).summary(new ScanTotals("s1", s));
        assertThat(out()).contains("requests:      2 reads of the source and the destination; 0 retried")
                .doesNotContain("writes");

        bytes.reset();
        printer(false).intoPrivateTopic("compared with the export in /backups/p", false).readsOnly()
                .summary(new ScanTotals("s1", completed(running())));
        assertThat(out()).contains("rows read:").doesNotContain("rows written");
    }

    @Test
    void onAClusterTheHintsCommandsNameIt() {
        printer(false).hints(ProgressPrinter.Hints.cluster("kafka1:9092")).summary(failed());
        assertThat(out()).contains("`tablescan failures s1 --kafka kafka1:9092`")
                .contains("`tablescan retry s1 --kafka kafka1:9092 --wait`");
    }

    @Test
    void anInterruptEndsTheBarLine() {
        ProgressPrinter printer = printer(true);
        printer.progress(new ScanTotals("s1", running()));
        printer.endLine();
        printer.stopping();
        assertThat(out()).matches("(?s)\r\\[.*\u001b\\[K\ninterrupted: cancelling the scan and stopping.*\n");
    }

    @Test
    void timeoutsAreSecondsMinutesOrHours() {
        var converter = new WaitOptions.DurationConverter();
        assertThat(converter.convert("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(converter.convert("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(converter.convert("2h")).isEqualTo(Duration.ofHours(2));
        for (String bad : new String[] {"10", "0s", "-5m", "1d", "s", "1.5h"}) {
            assertThatThrownBy(() -> converter.convert(bad)).as(bad).isInstanceOf(TypeConversionException.class)
                    .hasMessageContaining("not a duration"); // ParameterErrors adds the form (WaitIT)
        }
        assertThat(WaitOptions.text(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(WaitOptions.text(Duration.ofMinutes(10))).isEqualTo("10m");
    }
}
