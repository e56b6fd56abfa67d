package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.SampleTable;
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
 * the same command attaches to it (one scan, not two). A rate cap keeps each job running long enough. start
 * --mirror --dry-run runs a mirror's dry run on the workers; Ctrl-C of a client cancels its job.
 */
@ExtendWith(SharedCluster.class)
class ClusterClientIT {
    private static final int ROWS = 8_000;
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
        String[] source = {"--source-account", "emulator", "--source-table", "clientsource", "--kafka", kafka,
            "--max-rate", "1000"};
        String[] tables = concat(source, "--dest-account", "emulator", "--dest-table", "clientcopy");

        // verify: killed mid-job; the workers finish it, status prints the verify's own summary
        String verify = killMidJob(cluster, "verify-1", concat(new String[] {"verify"}, tables));
        assertThat(ScanAwait.ended(cluster.kafka, verify, LONG).state()).isEqualTo(ScanState.COMPLETED);
        assertThat(run(cluster, "status-verify", "status", verify, "--kafka", kafka)).isZero();
        assertThat(cluster.children.output("status-verify")).contains("different: 50 missing, 0 different, 2 extra");

        // start --mirror --dry-run --wait on the workers: what the mirror would do, and nothing changed
        assertThat(run(cluster, "dry-run", "start", "--mirror", "--dry-run", "--wait", "--kafka", kafka,
                "--source-account", "emulator", "--source-table", "clientsource", "--dest-account", "emulator",
                "--dest-table", "clientcopy")).isZero();
        assertThat(cluster.children.output("dry-run")).contains("dry run: the mirror would write 50 rows (50 "
                + "missing, 0 different), leave 7,950 unchanged and delete 2; nothing was changed");

        // copy --mirror: killed mid-job, run again: it follows the same scan to its end
        String[] mirror = concat(new String[] {"copy"}, concat(tables, "--mirror"));
        String mirrorScan = killMidJob(cluster, "mirror-1", mirror);
        assertThat(run(cluster, "mirror-2", mirror)).isZero();
        assertThat(cluster.children.output("mirror-2"))
                .contains("the same job is running on the cluster as scan " + mirrorScan);
        assertThat(ScanAwait.ended(cluster.kafka, mirrorScan, LONG).state()).isEqualTo(ScanState.COMPLETED);
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        TableComparer.Result check = TableComparer.compare(rest, "clientsource", rest, "clientcopy");
        assertThat(check.examples()).isEmpty();
        assertThat(check.destinationRows()).isEqualTo(ROWS);

        // count: killed, run again: attaches and prints the exact count; status shows it too
        String[] count = concat(new String[] {"count"}, source);
        String countScan = killMidJob(cluster, "count-1", count);
        assertThat(run(cluster, "count-2", count)).isZero();
        assertThat(cluster.children.output("count-2"))
                .contains("the same job is running on the cluster as scan " + countScan)
                .contains(String.format("%,d rows in", ROWS));
        assertThat(run(cluster, "status-count", "status", countScan, "--kafka", kafka)).isZero();
        assertThat(cluster.children.output("status-count")).contains(String.format("%,d rows in", ROWS));

        // Ctrl-C of a client cancels the job on the cluster, as it stops a local one (another job: another cap)
        String[] slower = concat(new String[] {"count"}, concat(java.util.Arrays.copyOf(source, 6), "--max-rate",
                "500"));
        Process interrupted = cluster.children.start("count-ctrl-c", cluster.env, slower);
        String cancelled = awaitScan(cluster, "count-ctrl-c", interrupted);
        ScanAwait.until(cluster.kafka, cancelled, s -> s.rowsRead() > 0, LONG);
        new ProcessBuilder("kill", "-INT", Long.toString(interrupted.pid())).inheritIO().start().waitFor();
        assertThat(interrupted.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted.exitValue()).as(cluster.children.output("count-ctrl-c")).isEqualTo(130);
        assertThat(ScanAwait.ended(cluster.kafka, cancelled, LONG).state()).isEqualTo(ScanState.CANCELLED);

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
        Process client = cluster.children.start(label, cluster.env, args);
        String scan = awaitScan(cluster, label, client);
        ScanTotals t = ScanAwait.until(cluster.kafka, scan, s -> s.rowsRead() > 0, LONG);
        assertThat(t.ended()).as("still running when killed").isFalse();
        client.destroyForcibly(); // SIGKILL: no shutdown hook, no cancel
        assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return scan;
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
