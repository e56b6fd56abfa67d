package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.SampleTable;
import io.tablescan.control.Throttle;
import io.tablescan.job.Jobs;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.ClusterJob;
import io.tablescan.runner.TableComparer;
import io.tablescan.schema.ScanState;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * count, verify and copy --mirror given --kafka on a cluster of worker processes are only clients: killed with
 * SIGKILL mid-job, the job completes on the workers and `status` shows its result; run again while the job runs,
 * the same command attaches to it (one scan, not two). A rate cap keeps each job running until the test has seen
 * that, then it is lifted. start --mirror --dry-run runs a mirror's dry run on the workers; Ctrl-C of a client
 * cancels its job.
 */
@ExtendWith(SharedCluster.class)
abstract class ClusterClientIT { // run by ClusterIT, on the fork's one cluster
    private static final int ROWS = 1_000;
    private static final Pattern SCAN = Pattern.compile("scan (scan-[A-Za-z0-9-]+):");
    static final Duration LONG = Duration.ofMinutes(3);

    @Test
    void commandsWithKafkaRunOnTheClustersWorkersAndSurviveTheirOwnDeath(CrashIT.Cluster cluster) throws Exception {
        var store = LocalServices.store();
        List<Row> rows = SampleTable.rows(ROWS);
        SampleTable.write(store, "clientsource", rows, 16);
        List<Row> copy = new ArrayList<>(rows.subList(50, ROWS)); // 50 rows missing
        copy.add(new Row("extra", "1", List.of(new RowProperty("V", EdmType.STRING, "a"))));
        copy.add(new Row("extra", "2", List.of(new RowProperty("V", EdmType.STRING, "b"))));
        SampleTable.write(store, "clientcopy", copy, 16);
        String kafka = cluster.kafka.bootstrapServers();
        assertThat(FreePorts.await(() -> ClusterJob.hasWorkers(cluster.kafka), Duration.ofSeconds(90), () -> true))
                .as("workers and a ledger in their groups").isTrue();
        // Each job is slow (5 rows/s: 1,000 rows would take 200 s) until the test has seen what it waits for: then its
        // cap is lifted or the job cancelled. So a job still runs when its client is killed or run again, even when a
        // command's JVM takes a minute to start on a loaded machine.
        String[] source = {"--source-account", "emulator", "--source-table", "clientsource", "--kafka", kafka,
            "--page-size", "20"}; // a capped job's first page (its first rows) within 4 to 5 s
        String[] tables = concat(source, "--dest-account", "emulator", "--dest-table", "clientcopy", "--max-rate",
                "5");

        // A count, a verify and a slower count (another cap: another job) start together: their waits overlap
        String[] count = concat(new String[] {"count"}, concat(source, "--max-rate", "5"));
        Process counting = cluster.children.start("count-1", cluster.env, count);
        Process verifying = cluster.children.start("verify-1", cluster.env, concat(new String[] {"verify"}, tables));
        Process interrupted = cluster.children.start("count-ctrl-c", cluster.env,
                concat(new String[] {"count"}, concat(source, "--max-rate", "4")));

        // count: killed mid-job, run again: attaches and prints the exact count
        String countScan = killMidJob(cluster, "count-1", counting);
        Process recounting = cluster.children.start("count-2", cluster.env, count);

        // verify: killed mid-job; the workers finish it, status prints the verify's own summary
        String verify = killMidJob(cluster, "verify-1", verifying);
        Throttle.set(cluster.kafka, verify, 0L, 0L);

        // Ctrl-C of a client cancels the job on the cluster, as it stops a local one
        String cancelled = awaitScan(cluster, "count-ctrl-c", interrupted);
        ScanAwait.until(cluster.kafka, cancelled, s -> s.rowsRead() > 0, LONG);
        new ProcessBuilder("kill", "-INT", Long.toString(interrupted.pid())).inheritIO().start().waitFor();
        assertThat(interrupted.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted.exitValue()).as(cluster.children.output("count-ctrl-c")).isEqualTo(130);
        assertThat(ScanAwait.ended(cluster.kafka, cancelled, LONG).state()).isEqualTo(ScanState.CANCELLED);

        // ... and its line says the rows the destination holds once the workers finished the work in hand, as
        // another client reads them, not the count of the moment of the Ctrl-C
        // A copy whose writes are slower than its reads (600 rows in 3 partitions, pages of 100, written at
        // 50 rows/s: 12 s, so the Ctrl-C lands mid-copy even when the ledger lags): when Ctrl-C comes, the
        // copy-worker holds batches that wait for their share of the write cap, and writes them (within the
        // command's 30 s wait) before the scan ends cancelled.
        List<Row> few = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            few.add(new Row("p" + i % 3, String.format("%04d", i), List.of(new RowProperty("V", EdmType.STRING, "x"))));
        }
        SampleTable.write(store, "clientctrlsrc", few, 3);
        Process copyInterrupted = cluster.children.start("copy-ctrl-c", cluster.env, "copy", "--kafka", kafka,
                "--source-account", "emulator", "--source-table", "clientctrlsrc", "--dest-account", "emulator",
                "--dest-table", "clientctrlc", "--page-size", "100", "--max-write-rate", "50");
        String copyCancelled = awaitScan(cluster, "copy-ctrl-c", copyInterrupted);
        ScanAwait.until(cluster.kafka, copyCancelled, s -> s.rowsWritten() > 0, LONG);
        new ProcessBuilder("kill", "-INT", Long.toString(copyInterrupted.pid())).inheritIO().start().waitFor();
        assertThat(copyInterrupted.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        String stopped = cluster.children.output("copy-ctrl-c");
        assertThat(copyInterrupted.exitValue()).as(stopped).isEqualTo(130);
        ScanTotals copyEnd = ScanAwait.until(cluster.kafka, copyCancelled, s -> s.ended() && s.openItems() == 0, LONG);
        long held = FidelityIT.client("dump", "clientctrlc").lines().filter(l -> !l.isBlank()).count();
        assertThat(copyEnd.rowsWritten()).as("the ledger's count once drained").isEqualTo(held);
        assertThat(stopped).as("what the JavaScript SDK reads in the destination")
                .contains(String.format("table clientctrlc holds part of the copy (%,d rows written when stopped)", held));

        attachedThenUncapped(cluster, "count-2", recounting, countScan);
        assertThat(recounting.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).as("count-2 ended").isTrue();
        assertThat(recounting.exitValue()).as(cluster.children.output("count-2")).isZero();
        assertThat(cluster.children.output("count-2")).contains(String.format("%,d rows in", ROWS));

        assertThat(ScanAwait.ended(cluster.kafka, verify, LONG).state()).isEqualTo(ScanState.COMPLETED);
        assertThat(run(cluster, "status-verify", "status", verify, "--kafka", kafka)).isZero();
        assertThat(cluster.children.output("status-verify")).contains("different: 50 missing, 0 different, 2 extra");

        // start --mirror --dry-run --wait on the workers: what the mirror would do, and nothing changed
        assertThat(run(cluster, "dry-run", "start", "--mirror", "--dry-run", "--wait", "--kafka", kafka,
                "--source-account", "emulator", "--source-table", "clientsource", "--dest-account", "emulator",
                "--dest-table", "clientcopy")).isZero();
        assertThat(cluster.children.output("dry-run")).contains(String.format("dry run: the mirror would write 50 "
                + "rows (50 missing, 0 different), leave %,d unchanged and delete 2; nothing was changed", ROWS - 50));

        // copy --mirror: killed mid-job, run again: it follows the same scan to its end
        String[] mirror = concat(new String[] {"copy"}, concat(tables, "--mirror"));
        String mirrorScan = killMidJob(cluster, "mirror-1", mirror);
        Process remirroring = cluster.children.start("mirror-2", cluster.env, mirror);
        attachedThenUncapped(cluster, "mirror-2", remirroring, mirrorScan);
        assertThat(remirroring.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).as("mirror-2 ended").isTrue();
        assertThat(remirroring.exitValue()).as(cluster.children.output("mirror-2")).isZero();
        assertThat(ScanAwait.ended(cluster.kafka, mirrorScan, LONG).state()).isEqualTo(ScanState.COMPLETED);
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        TableComparer.Result check = TableComparer.compare(rest, "clientsource", rest, "clientcopy");
        assertThat(check.examples()).isEmpty();
        assertThat(check.destinationRows()).isEqualTo(ROWS);

        try (ScanStatusReader reader = new ScanStatusReader(cluster.kafka)) {
            List<String> jobs = reader.all().stream() // this test's scans: those of its source table
                    .filter(t -> t.spec().getSource().getTable().toString().equals("clientsource"))
                    .map(t -> Jobs.of(t.spec()).name()).toList();
            assertThat(jobs).as("one scan a job, none started twice").containsExactlyInAnyOrder(
                    "count", "count", "mirror", "verify", "verify"); // a verify, and the mirror's dry run
        }
    }

    /** Starts the command, waits until its scan has read rows on the workers, kills it with SIGKILL: its scan id. */
    static String killMidJob(CrashIT.Cluster cluster, String label, String... args) throws Exception {
        return killMidJob(cluster, label, cluster.children.start(label, cluster.env, args));
    }

    /** The same for a command already started as {@code label}. */
    static String killMidJob(CrashIT.Cluster cluster, String label, Process client) throws Exception {
        String scan = awaitScan(cluster, label, client);
        ScanTotals t = ScanAwait.until(cluster.kafka, scan, s -> s.rowsRead() > 0, LONG);
        assertThat(t.ended()).as("still running when killed").isFalse();
        client.destroyForcibly(); // SIGKILL: no shutdown hook, no cancel
        assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return scan;
    }

    /**
     * Waits until the command run again as {@code label} says it follows {@code scan}, then lifts that scan's caps:
     * the job, kept slow so far, then runs to its end at full speed.
     */
    static void attachedThenUncapped(CrashIT.Cluster cluster, String label, Process client, String scan) {
        assertThat(FreePorts.await(() -> cluster.children.output(label)
                .contains("the same job is running on the cluster as scan " + scan), LONG, client::isAlive))
                .as(label + " follows " + scan + ": " + cluster.children.output(label)).isTrue();
        Throttle.set(cluster.kafka, scan, 0L, 0L);
    }

    /** The scan the command started on the cluster's workers, as its first line names it. */
    static String awaitScan(CrashIT.Cluster cluster, String label, Process client) {
        String[] scan = {null};
        assertThat(FreePorts.await(() -> {
            Matcher m = SCAN.matcher(cluster.children.output(label));
            scan[0] = m.find() ? m.group(1) : null;
            return scan[0] != null;
        }, LONG, client::isAlive)).as(label + " started a scan: " + cluster.children.output(label)).isTrue();
        assertThat(cluster.children.output(label)).contains("on the workers of the cluster");
        return scan[0];
    }

    static int run(CrashIT.Cluster cluster, String label, String... args) throws Exception {
        Process p = cluster.children.start(label, cluster.env, args);
        assertThat(p.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).as(label + " ended").isTrue();
        return p.exitValue();
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
