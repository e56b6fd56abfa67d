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
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * export --kafka on a cluster, at its edges, every process logging at DEBUG: the same export started twice at once is
 * one job; a different export onto the same target at the same moment is refused with one line and writes nothing;
 * Ctrl-C of the command cancels the job (no manifest, the target free again); `tablescan cancel` fails the export (export-failed file, no manifest,
 * claim and topic gone, the same export can run again); copy-workers that cannot open the target fail the export
 * within a bounded time, with the reason. No process's output and no record of any topic holds the account key, the
 * SAS signature or a connection string, through an export to Blob by SAS token and its import on the cluster.
 */
@ExtendWith(SharedCluster.class)
abstract class ClusterExportEdgesIT { // run by ClusterIT, on the fork's one cluster
    private static final Duration LONG = ClusterClientIT.LONG;
    private static final Pattern SCAN = Pattern.compile("scan (scan-[A-Za-z0-9-]+)");

    @Test
    void racesCancelCtrlCAnUnreachableTargetAndNoSecretAnywhere(CrashIT.Cluster cluster) throws Exception {
        var tables = LocalServices.store();
        for (String t : List.of("edgea", "edgeb")) {
            SampleTable.write(tables, t, SampleTable.rows(1_000), 8);
        }
        String blob = AzuriteBlob.shared().connectionString();
        var blobs = new BlobServiceClientBuilder().connectionString(blob).serviceVersion(BlobStore.SERVICE_VERSION)
                .buildClient();
        String sas = cluster.env.get(SharedCluster.SAS_TOKEN); // the cluster's processes log at DEBUG, HTTP headers too
        String signature = sas.replaceAll(".*sig=([^&]*).*", "$1");
        try (CredentialsIT.PrivateTopicRecorder topics = new CredentialsIT.PrivateTopicRecorder(cluster.kafka,
                Pattern.compile(".*"))) {
            String kafka = cluster.kafka.bootstrapServers();
            assertThat(FreePorts.await(() -> ClusterJob.hasWorkers(cluster.kafka), Duration.ofSeconds(90), () -> true))
                    .as("workers and a ledger in their groups").isTrue();

            // The same export twice at the same moment: one job, the second command follows it
            String[] same = export("edgea", "sasblob", "same", kafka, "0");
            Process first = cluster.children.start("same-1", cluster.env, same);
            Process second = cluster.children.start("same-2", cluster.env, same);
            for (String label : List.of("same-1", "same-2")) {
                Process p = label.equals("same-1") ? first : second;
                assertThat(p.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(cluster.children.output(label)).isZero();
                assertThat(cluster.children.output(label)).contains("exported 1,000 rows in");
            }
            assertThat(cluster.children.output("same-1") + cluster.children.output("same-2"))
                    .contains("the same job is running on the cluster as scan ");
            assertThat(scans(cluster)).as("one scan for both commands").hasSize(1);
            // Run again once finished: that export's result, with nothing said about a job to cancel or files written now
            assertThat(ClusterClientIT.run(cluster, "same-3", same)).isZero();
            assertThat(cluster.children.output("same-3")).contains("has finished", "exported 1,000 rows in")
                    .doesNotContain("Ctrl-C cancels it", "files written in");
            assertThat(scans(cluster)).as("still one scan").hasSize(1);

            // Two different exports onto one target at the same moment: one runs, the other is refused, writes nothing.
            // Each capped to last 20 s, so that the winner still holds the target when the loser's JVM asks for it.
            Process a = cluster.children.start("race-a", cluster.env, export("edgea", "backups", "race", kafka, "50"));
            Process b = cluster.children.start("race-b", cluster.env, export("edgeb", "backups", "race", kafka, "50"));
            assertThat(a.waitFor(LONG.toSeconds(), TimeUnit.SECONDS) && b.waitFor(LONG.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            String loser = a.exitValue() == 0 ? "race-b" : "race-a";
            String winner = a.exitValue() == 0 ? "race-a" : "race-b";
            assertThat(List.of(a.exitValue(), b.exitValue())).as(cluster.children.output("race-a") + "\n"
                    + cluster.children.output("race-b")).containsExactlyInAnyOrder(0, 2);
            assertThat(cluster.children.output(winner)).contains("exported 1,000 rows in");
            assertThat(cluster.children.output(loser).lines().filter(l -> l.contains("is being written by the export "
                    + "running as scan "))).as(cluster.children.output(loser)).hasSize(1);
            assertThat(cluster.children.output(loser)).doesNotContain("\tat io.tablescan");
            assertThat(scans(cluster)).as("no scan of the refused export").hasSize(2);
            BlobContainerClient container = blobs.getBlobContainerClient("edges");
            List<String> raced = names(container, "race/");
            assertThat(raced).contains("race/manifest.json").allMatch(n -> n.equals("race/manifest.json")
                    || n.matches("race/part-\\d{5}-\\d{5}-[0-9a-f]+\\.jsonl\\.gz"));

            // Ctrl-C of the attached command cancels the job: no manifest, and the target is free again at once
            // 100 s at 10 rows/s: still running when the signal lands however loaded the machine; it ends the job
            String[] interrupted = export("edgeb", "sasblob", "interrupted", kafka, "10");
            Process attached = cluster.children.start("ctrl-c", cluster.env, interrupted);
            String interruptedScan = ClusterClientIT.awaitScan(cluster, "ctrl-c", attached);
            ScanAwait.until(cluster.kafka, interruptedScan, s -> s.rowsRead() > 0, LONG);
            new ProcessBuilder("kill", "-INT", Long.toString(attached.pid())).inheritIO().start().waitFor();
            assertThat(attached.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(attached.exitValue()).as(cluster.children.output("ctrl-c")).isEqualTo(130);
            assertThat(cluster.children.output("ctrl-c")).contains("the export was cancelled on the cluster");
            assertThat(ScanAwait.ended(cluster.kafka, interruptedScan, LONG).state()).isEqualTo(ScanState.CANCELLED);
            assertThat(names(container, "interrupted/")).as("no claim, no manifest").singleElement().asString()
                    .matches("interrupted/export-failed-[0-9a-f]+\\.json");
            Process again = cluster.children.start("ctrl-c-again", cluster.env, interrupted);
            Throttle.set(cluster.kafka, ClusterClientIT.awaitScan(cluster, "ctrl-c-again", again), 0L, 0L); // full speed
            assertThat(again.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(again.exitValue()).as(cluster.children.output("ctrl-c-again")).isZero();
            assertThat(cluster.children.output("ctrl-c-again")).doesNotContain(interruptedScan)
                    .contains("exported 1,000 rows in");

            // tablescan cancel: the attached command fails in one line; the target has the failure, no manifest, no
            // claim; the topic goes; an export to that target then runs
            Process client = cluster.children.start("cancelled", cluster.env, export("edgea", "backups", "cancelled",
                    kafka, "10")); // 100 s: the cancel command (a JVM, at load 60 more than 20 s) lands mid-scan
            String cancelledScan = ClusterClientIT.awaitScan(cluster, "cancelled", client);
            ScanAwait.until(cluster.kafka, cancelledScan, s -> s.rowsRead() > 0, LONG);
            assertThat(ClusterClientIT.run(cluster, "cancel", "cancel", cancelledScan, "--kafka", kafka)).isZero();
            assertThat(client.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).as(cluster.children.output("cancelled")).isEqualTo(5);
            assertThat(cluster.children.output("cancelled"))
                    .contains("no manifest written: the scan ended cancelled, so no files were written");
            assertThat(FreePorts.await(() -> names(container, "cancelled/").size() == 1, Duration.ofSeconds(30),
                    () -> true)).as("the claim released").isTrue();
            assertThat(names(container, "cancelled/")).singleElement().asString()
                    .matches("cancelled/export-failed-[0-9a-f]+\\.json");
            awaitNoTopic(cluster, "export-" + cancelledScan);
            assertThat(ClusterClientIT.run(cluster, "cancelled-again", export("edgea", "backups", "cancelled", kafka,
                    "0"))).isZero();
            assertThat(cluster.children.output("cancelled-again")).doesNotContain(cancelledScan)
                    .contains("exported 1,000 rows in");

            // A target the copy-workers cannot open (an alias only the command knows): the export fails, with why
            Map<String, String> clientOnly = new HashMap<>(cluster.env);
            clientOnly.put("TABLESCAN_ACCOUNT_CLIENTONLY_CONNECTION_STRING", blob);
            Process unreachable = cluster.children.start("unreachable", clientOnly,
                    export("edgeb", "clientonly", "unreachable", kafka, "0"));
            assertThat(unreachable.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(unreachable.exitValue()).as(cluster.children.output("unreachable")).isEqualTo(1);
            assertThat(cluster.children.output("unreachable")).contains("no manifest written: a copy-worker cannot "
                    + "write the files to container edges under unreachable of account clientonly (this process knows "
                    + "no account alias 'clientonly'");
            assertThat(names(container, "unreachable/")).as("no claim left").isEmpty();
            java.util.regex.Matcher m = SCAN.matcher(cluster.children.output("unreachable"));
            assertThat(m.find()).isTrue();
            assertThat(ClusterClientIT.run(cluster, "status", "status", m.group(1), "--kafka", kafka)).isZero();
            assertThat(cluster.children.output("status")).contains("files:         none: a copy-worker cannot write");

            // The cluster's import of the SAS export, then: no secret in any process's output or any record
            String[] restore = {"import", "--from-container", "edges", "--from-prefix", "same", "--from-account",
                "sasblob", "--dest-account", "emulator", "--dest-table", "edgerestored", "--kafka", kafka};
            assertThat(ClusterClientIT.run(cluster, "import", restore)).as(cluster.children.output("import")).isZero();
            RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
            assertThat(TableComparer.compare(rest, "edgea", rest, "edgerestored").equal()).isTrue();
            byte[] records = topics.stop();
            assertThat(topics.topics).as("topics read").anyMatch(t -> t.contains(".export-"))
                    .anyMatch(t -> t.contains(".import-")).anyMatch(t -> t.endsWith("scan-events"));
            List<String> secrets = List.of(signature, URLDecoder.decode(signature, StandardCharsets.UTF_8),
                    LocalServices.azurite().accountKey(), blob, LocalServices.azurite().connectionString(), sas,
                    cluster.env.get(io.tablescan.ledger.page.StatusPage.TOKEN)); // the status page's, in every env
            for (String secret : secrets) {
                assertThat(CredentialsIT.indexOf(records, secret.getBytes(StandardCharsets.UTF_8)))
                        .as("a secret in a topic's records").isEqualTo(-1);
            }
            try (var logs = Files.list(SharedCluster.logs())) {
                for (Path log : logs.toList()) {
                    String text = Files.readString(log);
                    secrets.forEach(secret -> assertThat(text).as(log.toString()).doesNotContain(secret));
                }
            }
            assertThat(cluster.children.output("copy-1")).contains("DEBUG");
        }
    }

    private static String[] export(String table, String account, String prefix, String kafka, String rate) {
        List<String> args = new ArrayList<>(List.of("export", "--source-account", "emulator", "--source-table", table,
                "--to-container", "edges", "--to-prefix", prefix, "--to-account", account, "--kafka", kafka));
        if (!rate.equals("0")) { // pages of 100 rows: the cap holds from the first page on
            args.addAll(List.of("--max-rate", rate, "--page-size", "100"));
        }
        return args.toArray(String[]::new);
    }

    /** This test's scans on the shared cluster: those of its source tables. */
    private static List<ScanTotals> scans(CrashIT.Cluster cluster) {
        try (ScanStatusReader reader = new ScanStatusReader(cluster.kafka)) {
            return reader.all().stream()
                    .filter(t -> List.of("edgea", "edgeb").contains(t.spec().getSource().getTable().toString())).toList();
        }
    }

    private static List<String> names(BlobContainerClient container, String prefix) {
        return container.listBlobs(new ListBlobsOptions().setPrefix(prefix), null).stream().map(BlobItem::getName)
                .toList();
    }

    private static void awaitNoTopic(CrashIT.Cluster cluster, String name) throws Exception {
        String topic = cluster.kafka.namespace().topic(name);
        try (Admin admin = Admin.create(cluster.kafka.admin())) {
            assertThat(FreePorts.await(() -> {
                try {
                    return !admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic);
                } catch (Exception e) {
                    return false;
                }
            }, Duration.ofSeconds(60), () -> true)).as(topic + " deleted").isTrue();
        }
    }
}
