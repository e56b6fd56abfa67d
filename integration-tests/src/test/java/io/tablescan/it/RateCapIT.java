package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.copy.CopyWorker;
import io.tablescan.ledger.ScanLedger;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.Row;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.table.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Rate caps kept by all the processes of a scan together, measured from the ledger's events (what the workers
 * committed, stamped by Kafka), not from what the processes say of their shares. The tests that check only caps run
 * at the same time (each is held to its caps, so their time is waiting, and each has its own tables and broker or
 * process); the one that also checks a floor runs alone.
 */
class RateCapIT {
    /** The cluster's test checks a floor as well as a cap: it runs alone, the others together. */
    private static final String ALONE = "rate-cap-floor";

    private static final long CAP = 200;
    private static final long THROTTLED = 100;
    /** The cap a throttle puts on a scan started without one. */
    private static final long UNCAPPED_THROTTLED = 200;
    private static final long WINDOW = 10_000;

    @Test
    @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ_WRITE)
    void threeReadingProcessesTogetherKeepTheCapAndAThrottleChangesItWithinFiveSeconds() throws Exception {
        var store = LocalServices.store();
        // 6,000 rows, the throttle at 3,250: 16 s at the cap before it, and after it at most 1,000 rows in its first
        // 5 s then 1,750 at the throttle's rate, 22 s in all; a throttle that did nothing would end 14 s after it,
        // too soon for the check below.
        List<Row> rows = rows(24, 250);
        SampleTable.write(store, "ratesource", rows, 16);
        // The fork's broker (its default namespace: the throttle and status commands run in this JVM, at once, and
        // read the namespace from its environment; this test runs alone); the copy-worker and the ledger in this
        // JVM: the three reading processes that share the cap are what is proven, and each JVM costs seconds of CPU.
        String bootstrap = LocalServices.broker().bootstrapServers();
        Namespace namespace = Namespace.DEFAULT;
        KafkaSettings kafka = KafkaSettings.of(bootstrap).withNamespace(namespace);
        WorkerSettings copySettings = new WorkerSettings(kafka, new Accounts(alias -> null).register("emulator", store),
                32, RetryPolicy.DEFAULT, 4, Optional.empty());
        try (Admin admin = Admin.create(kafka.admin())) { // the ledger and the copy-worker here need them at start
            Topics.ensure(admin, namespace, 4, Optional.empty(), Duration.ofSeconds(60));
        }
        try (ChildProcesses children = new ChildProcesses("rate-cap");
                WorkerRuntime<?> copy = CopyWorker.create(copySettings);
                ScanLedger ledger = ScanLedger.start(kafka)) {
            Map<String, String> env = Map.of(
                    "KAFKA_BOOTSTRAP_SERVERS", bootstrap, "TABLESCAN_NAMESPACE", namespace.name(),
                    "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                    "TABLESCAN_TOPIC_PARTITIONS", "4");
            // three reading processes (a discovery-worker, two partition-workers) share the read cap
            children.start("discovery", env, "worker", "discovery");
            children.start("partition-1", env, "worker", "partition");
            children.start("partition-2", env, "worker", "partition");
            Thread.ofPlatform().daemon().name("rate-cap-copy-worker").start(copy);
            ScanSpec built = ScanSpecs.copy().from(new TableRef("emulator", "ratesource"))
                    .to(new TableRef("emulator", "ratecopy")).pageSize(50).limits(Map.of("read", CAP)).build();
            // one page per item: each event holds at most 50 rows, fine grained for 10 s windows
            ScanSpec spec = ScanSpec.newBuilder(built).setPageBudget(1).build();
            ScanStarter.start(kafka, spec);
            ScanAwait.until(kafka, spec.getScanId(), t -> t.rowsRead() >= 3_250 || t.ended(), Duration.ofMinutes(3));
            long throttledAt = System.currentTimeMillis();
            // in this JVM: a command as a process started too late on a loaded machine, after the scan had ended
            Cli.Run run = Cli.run("throttle", spec.getScanId(), "--max-rate", Long.toString(THROTTLED), "--kafka",
                    bootstrap);
            assertThat(run.exitCode()).as(run.err()).isZero();
            Cli.Run status = Cli.run("status", spec.getScanId(), "--kafka", bootstrap);
            assertThat(status.out()).contains("rate cap:      reads 100 rows/s");
            ScanTotals totals = ScanAwait.ended(kafka, spec.getScanId(), Duration.ofMinutes(5));

            assertThat(totals.complete()).isTrue();
            assertThat(totals.rowsWritten()).isEqualTo(rows.size());
            assertThat(TableComparer.compare(store, "ratesource", store, "ratecopy").equal()).isTrue();

            List<long[]> reads = rowsRead(kafka, spec.getScanId());
            long first = reads.get(0)[0];
            long last = reads.get(reads.size() - 1)[0];
            StringBuilder perSecond = new StringBuilder("rows read a second from the first event (throttle at +"
                    + (throttledAt - first) / 1000 + " s):");
            for (long s = first; s <= last; s += 1000) {
                perSecond.append(' ').append(sum(reads, s, s + 1000));
            }
            System.out.println(perSecond);
            assertThat(throttledAt - first).as("a cap held long enough to measure").isGreaterThan(WINDOW + 5_000);
            assertThat(last - throttledAt).as("reads slowed by the throttle, long enough to measure it")
                    .isGreaterThan(WINDOW + 5_000);
            for (long from = first; from + WINDOW <= last; from += 500) {
                long read = sum(reads, from, from + WINDOW);
                boolean before = from + WINDOW <= throttledAt;
                boolean after = from >= throttledAt + 5_000;
                if (before) {
                    assertThat(read).as("rows read in 10 s from +%d ms", from - first).isLessThanOrEqualTo(CAP * 11);
                }
                if (before && from >= first + 5_000) {
                    assertThat(read).as("rows read in 10 s from +%d ms", from - first).isGreaterThan(CAP * 8);
                }
                if (after) {
                    assertThat(read).as("rows read in 10 s from 5 s after the throttle, +%d ms", from - throttledAt)
                            .isLessThanOrEqualTo(THROTTLED * 11);
                }
            }
        } finally {
            copySettings.closeRates(); // its rate-sharing ticker would publish on to the fork's broker
        }
    }

    /** A scan started with no cap is capped by a throttle from its next items on (in-process workers). */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
    void aScanStartedWithoutACapIsCappedByAThrottle() {
        var store = LocalServices.store();
        // Uncapped, Azurite serves pages as fast as it can until the cap holds (a few seconds: the throttle
        // record, then the rate board of the next item); pages of 10 rows keep that below about 1,500 rows/s, so
        // that 10,000 rows leave more than 15 s of reads after it: 3,000 rows at the cap, and a margin of as many
        // (pages of 50 left 3.5 s of 16,000 rows once, a quiet machine).
        List<Row> rows = rows(20, 500);
        SampleTable.write(store, "rateuncapped", rows, 16);
        KafkaSettings kafka = KafkaSettings.of(LocalServices.broker().bootstrapServers());
        ScanSpec built = ScanSpecs.copy().from(new TableRef("emulator", "rateuncapped"))
                .to(new TableRef("emulator", "rateuncappedcopy")).pageSize(10).build();
        ScanSpec spec = ScanSpec.newBuilder(built).setPageBudget(1).build(); // short items: the next takes the cap
        long[] throttledAt = {0};
        var accounts = new io.tablescan.table.Accounts(alias -> null).register("emulator", store);
        var outcome = io.tablescan.runner.CopyRun.run(io.tablescan.runner.CopyRun.settings(kafka, accounts, Map.of()),
                spec, io.tablescan.runner.RunOptions.defaults().withTimeout(Duration.ofMinutes(3))
                        .withProgress(Duration.ofMillis(100), t -> {
                            if (throttledAt[0] == 0 && t.rowsRead() >= 200) {
                                throttledAt[0] = System.currentTimeMillis();
                                io.tablescan.control.Throttle.set(kafka, spec.getScanId(), UNCAPPED_THROTTLED, null);
                            }
                        }));

        assertThat(outcome.totals().complete()).isTrue();
        assertThat(TableComparer.compare(store, "rateuncapped", store, "rateuncappedcopy").equal()).isTrue();
        List<long[]> reads = rowsRead(kafka, spec.getScanId());
        long last = reads.get(reads.size() - 1)[0];
        long readAfterThrottle = reads.stream().filter(r -> r[0] >= throttledAt[0] + 5_000).mapToLong(r -> r[1]).sum();
        assertThat(throttledAt[0]).as("throttled while it ran").isPositive();
        assertThat(last - throttledAt[0]).as("ms from the throttle to the last read").isGreaterThan(WINDOW + 5_000);
        // Within 15%, not the 10% of the tests above: this scan's reads are timed by the ledger's records, which a
        // loaded machine bunches, and it ran uncapped before (2,230 rows in a window once, at a load of 17). Without
        // the throttle it reads several times as many.
        for (long from = throttledAt[0] + 5_000; from + WINDOW <= last; from += 500) {
            assertThat(sum(reads, from, from + WINDOW)).as("rows read in 10 s from 5 s after the throttle, +%d ms",
                    from - throttledAt[0]).isLessThanOrEqualTo(UNCAPPED_THROTTLED * 23 / 2);
        }
        System.out.printf("uncapped scan throttled to %d rows/s after %d rows: %d rows read from 5 s after it%n",
                UNCAPPED_THROTTLED, rows.size() - readAfterThrottle, readAfterThrottle);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
    void aLocalCopyKeepsItsCaps() throws Exception {
        List<Row> rows = rows(8, 500);
        Copied copy = localCopy("ratelocal", rows, "--page-size", "100", "--max-rate", "300", "--max-write-rate", "300");
        // 4,000 rows at 300 rows/s, within 10%: at least 12 s (uncapped, this copy takes a few seconds), and the
        // scan's own average (from its first read, not the JVM's start) at most 10% over
        assertThat(copy.millis()).as("elapsed ms").isGreaterThan(rows.size() * 1000L / 330);
        assertThat(copy.averageRate()).as("rows/s (average)").isLessThanOrEqualTo(330);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ResourceLock(value = ALONE, mode = ResourceAccessMode.READ)
    void aLocalCopyKeepsAWriteCapAlone() throws Exception {
        List<Row> rows = rows(4, 500);
        Copied copy = localCopy("ratewrites", rows, "--max-write-rate", "100");
        // 2,000 rows written at 100 rows/s, within 10%: at least 18 s (the default table sink writes them; uncapped,
        // this copy takes a few seconds), and the scan's own average at most 10% over
        System.out.printf("%,d rows copied with a write cap of 100 rows/s in %,d ms%n", rows.size(), copy.millis());
        assertThat(copy.millis()).as("elapsed ms").isGreaterThan(rows.size() * 1000L / 110);
        assertThat(copy.averageRate()).as("rows/s (average)").isLessThanOrEqualTo(110);
    }

    /**
     * A local copy of {@code rows} into {@code table}copy with these options, as a process of its own (the tests of
     * this class run at the same time, and a command run in this JVM would hold the others' output); its ms from start
     * to exit, the JVM's start included, and the rows/s its summary gives as the scan's average. The copy is checked
     * exact.
     */
    private static Copied localCopy(String table, List<Row> rows, String... options) throws Exception {
        var store = LocalServices.store();
        SampleTable.write(store, table, rows, 16);
        List<String> args = new ArrayList<>(List.of("copy", "--source-connection-string",
                LocalServices.azurite().connectionString(), "--source-table", table, "--dest-table", table + "copy"));
        args.addAll(List.of(options));
        try (ChildProcesses children = new ChildProcesses("rate-" + table)) {
            long start = System.nanoTime();
            Process copy = children.start("copy", Map.of(), args.toArray(String[]::new));
            assertThat(copy.waitFor(3, TimeUnit.MINUTES)).isTrue();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(copy.exitValue()).as(children.output("copy")).isZero();
            assertThat(TableComparer.compare(store, table, store, table + "copy").equal()).isTrue();
            java.util.regex.Matcher average = java.util.regex.Pattern.compile("rows/s: +([\\d,]+) \\(average\\)")
                    .matcher(children.output("copy"));
            assertThat(average.find()).as(children.output("copy")).isTrue();
            return new Copied(millis, Long.parseLong(average.group(1).replace(",", "")));
        }
    }

    /** A copy's time from its JVM's start to its exit, and its summary's average rows/s. */
    private record Copied(long millis, long averageRate) {}

    /** {@code partitions} partitions of {@code each} sample rows. */
    static List<Row> rows(int partitions, int each) {
        Random random = new Random(7);
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int r = 0; r < each; r++) {
                rows.add(SampleTable.row(String.format("p%03d", p), String.format("r%05d", r), random));
            }
        }
        return rows;
    }

    /** Every committed event's time (Kafka's timestamp) and rows read, in time order. */
    static List<long[]> rowsRead(KafkaSettings kafka, String scanId) {
        List<long[]> reads = new ArrayList<>();
        var deserializer = kafka.valueDeserializer();
        try (Consumer<byte[], byte[]> consumer = kafka.newReader()) {
            List<TopicPartition> partitions = Topics.partitions(consumer, kafka.namespace().scanEvents());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Topics.readToEnd(consumer, consumer.endOffsets(partitions), record -> {
                if (deserializer.deserialize(record.topic(), record.value()) instanceof ScanEvent e
                        && e.getScanId().equals(scanId) && e.getRowsRead() > 0) {
                    reads.add(new long[] {record.timestamp(), e.getRowsRead()});
                }
            });
        }
        reads.sort((a, b) -> Long.compare(a[0], b[0]));
        return reads;
    }

    static long sum(List<long[]> reads, long from, long to) {
        return reads.stream().filter(r -> r[0] >= from && r[0] < to).mapToLong(r -> r[1]).sum();
    }
}
