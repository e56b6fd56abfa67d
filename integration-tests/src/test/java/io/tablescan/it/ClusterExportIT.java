package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import io.tablescan.azure.RestTableReader;
import io.tablescan.backup.BlobStore;
import io.tablescan.cli.SampleTable;
import io.tablescan.control.Throttle;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.ClusterJob;
import io.tablescan.runner.TableComparer;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * export --kafka on a cluster of worker processes is only a client: SIGKILLed mid-scan, the scan completes on the
 * workers and their copy-workers write the files and the manifest to Blob storage; a copy-worker SIGKILLed as that
 * file-writing stage starts changes nothing; the same command run again follows the job to its end (or, if it has
 * ended, prints its result). The export is then imported and compared over raw REST with its source, and nothing of the job is left: no claim, no index of
 * the files stage, no topic. import --kafka likewise: killed once its job started, the copy-workers send its files, and
 * the same command run again follows the job; and start --from starts that job, to which import --kafka attaches.
 */
@ExtendWith(SharedCluster.class)
abstract class ClusterExportIT { // run by ClusterIT, on the fork's one cluster
    private static final int ROWS = 4_000;

    @Test
    void anExportOnTheClusterOutlivesItsCommandAndACopyWorkerKilledAsItsFilesStageStarts(CrashIT.Cluster cluster)
            throws Exception {
        var store = LocalServices.store();
        SampleTable.write(store, "clusterexportsource", SampleTable.rows(ROWS), 16);
        String blob = AzuriteBlob.shared().connectionString();
        String kafka = cluster.kafka.bootstrapServers();
        assertThat(FreePorts.await(() -> ClusterJob.hasWorkers(cluster.kafka), Duration.ofSeconds(90), () -> true))
                .as("workers and a ledger in their groups").isTrue();
        String[] export = {"export", "--source-account", "emulator", "--source-table", "clusterexportsource",
            "--to-container", "clusterexports", "--to-prefix", "one", "--to-account", "backups", "--kafka", kafka,
            "--max-rate", "50", "--page-size", "100", // slow until its command is killed: then the cap is lifted
            "--format", "parquet"}; // each copy-worker finds the columns in the topic: the import reads them back

        String scan = ClusterClientIT.killMidJob(cluster, "export-1", export);
        Throttle.set(cluster.kafka, scan, 0L, 0L);
        ScanTotals t = ScanAwait.until(cluster.kafka, scan, ScanTotals::ended, ClusterClientIT.LONG);
        assertThat(t.state()).isEqualTo(ScanState.COMPLETED);
        // the file-writing stage starts within seconds of the scan's end: a copy-worker dies as it does, or just
        // before (4,000 rows' files take well under a second: not asserted; ExportCrashIT kills within the stage)
        Process copy = cluster.workers.get("copy-1");
        copy.destroyForcibly();
        assertThat(copy.waitFor(30, TimeUnit.SECONDS)).isTrue();
        cluster.workers.put("copy-1", cluster.children.start("copy-1", cluster.env, "worker", "copy"));

        assertThat(ClusterClientIT.run(cluster, "export-2", export)).as(cluster.children.output("export-2")).isZero();
        assertThat(cluster.children.output("export-2"))
                .contains(" on the cluster as scan " + scan) // still running, or finished by then
                .contains(String.format("exported %,d rows in", ROWS));

        // import --kafka is a client too: killed once its job started, run again, it follows the job to its end
        String[] restore = {"import", "--from-container", "clusterexports", "--from-prefix", "one", "--from-account",
            "backups", "--dest-account", "emulator", "--dest-table", "clusterexportcopy", "--kafka", kafka,
            "--max-write-rate", "50"}; // slow until the command run again attaches: then the cap is lifted
        String importScan = ClusterClientIT.killMidJob(cluster, "import-1", restore);
        Process reimporting = cluster.children.start("import-2", cluster.env, restore);
        ClusterClientIT.attachedThenUncapped(cluster, "import-2", reimporting, importScan);
        assertThat(reimporting.waitFor(ClusterClientIT.LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(reimporting.exitValue()).as(cluster.children.output("import-2")).isZero();
        assertThat(cluster.children.output("import-2")).contains(
                String.format("imported %,d rows into clusterexportcopy", ROWS));
        // status prints the import's summary as the import command does: rows of the export's files
        assertThat(ClusterClientIT.run(cluster, "import-status", "status", importScan, "--kafka", kafka)).isZero();
        assertThat(cluster.children.output("import-status")).contains(String.format(
                "rows read:     %,d from the export's files", ROWS)).doesNotContain("next --since");
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        TableComparer.Result check = TableComparer.compare(rest, "clusterexportsource", rest, "clusterexportcopy");
        assertThat(check.examples()).isEmpty();
        assertThat(check.destinationRows()).isEqualTo(ROWS);
        try (Admin admin = Admin.create(cluster.kafka.admin())) {
            String topic = cluster.kafka.namespace().topic("import-" + importScan);
            assertThat(FreePorts.await(() -> !topics(admin).contains(topic), Duration.ofSeconds(60), () -> true))
                    .as("the import's topic is deleted").isTrue();
        }

        // start --from starts the same import job: the import command run next attaches to it
        String[] started = {"start", "--from-container", "clusterexports", "--from-prefix", "one", "--from-account",
            "backups", "--dest-account", "emulator", "--dest-table", "clusterexportstarted", "--kafka", kafka,
            "--max-write-rate", "10"}; // 400 s unless lifted: two JVMs start before the import command attaches
        assertThat(ClusterClientIT.run(cluster, "start-import", started)).as(cluster.children.output("start-import"))
                .isZero();
        String startedScan = cluster.children.output("start-import").lines().map(String::trim)
                .filter(l -> l.matches("[\\w-]+")).reduce((a, b) -> b).orElseThrow(); // its scan id, on a line of its own
        String[] attach = {"import", "--from-container", "clusterexports", "--from-prefix", "one", "--from-account",
            "backups", "--dest-account", "emulator", "--dest-table", "clusterexportstarted", "--kafka", kafka,
            "--max-write-rate", "10"};
        Process attached = cluster.children.start("import-3", cluster.env, attach);
        ClusterClientIT.attachedThenUncapped(cluster, "import-3", attached, startedScan);
        assertThat(attached.waitFor(ClusterClientIT.LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(attached.exitValue()).as(cluster.children.output("import-3")).isZero();
        assertThat(cluster.children.output("import-3")).contains(
                String.format("imported %,d rows into clusterexportstarted", ROWS))
                .doesNotContain("batches through the workers") // it follows the job, and starts nothing
                .doesNotContain("already holds"); // the rows there are that job's own
        check = TableComparer.compare(rest, "clusterexportsource", rest, "clusterexportstarted");
        assertThat(check.examples()).isEmpty();
        assertThat(check.destinationRows()).isEqualTo(ROWS);

        // profile --kafka runs its scan on the workers, then reads the rows they staged, then deletes their topic
        assertThat(ClusterClientIT.run(cluster, "profile", "profile", "--source-account", "emulator", "--source-table",
                "clusterexportsource", "--kafka", kafka, "--json")).as(cluster.children.output("profile")).isZero();
        assertThat(cluster.children.output("profile")).contains("on the workers of the cluster")
                .contains("\"rows\":" + ROWS + ",").contains("\"partitions\":" + SampleTable.rows(ROWS).stream()
                        .map(io.tablescan.spi.Row::partitionKey).distinct().count() + ",");
        try (Admin admin = Admin.create(cluster.kafka.admin())) {
            assertThat(topics(admin)).noneMatch(name -> name.startsWith(cluster.kafka.namespace().topic("profile-")));
        }

        BlobContainerClient container = new BlobServiceClientBuilder().connectionString(blob)
                .serviceVersion(BlobStore.SERVICE_VERSION).buildClient().getBlobContainerClient("clusterexports");
        List<String> names = container.listBlobs(new ListBlobsOptions().setPrefix("one/"), null).stream()
                .map(BlobItem::getName).toList();
        assertThat(names).contains("one/manifest.json", "one/schema.json").allMatch(n -> n.equals("one/manifest.json")
                || n.equals("one/schema.json") || n.matches("one/part-\\d{5}-\\d{5}-[0-9a-f]+\\.parquet"));
        try (Admin admin = Admin.create(cluster.kafka.admin())) {
            String topic = cluster.kafka.namespace().topic("export-" + scan);
            assertThat(FreePorts.await(() -> !topics(admin).contains(topic), Duration.ofSeconds(30), () -> true))
                    .as("the export's topic is deleted").isTrue();
        }
    }

    private static java.util.Set<String> topics(Admin admin) {
        try {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
