package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.backup.Manifest;
import io.tablescan.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * export and import on Azurite (tables and Blob): every type and odd key restored identical as another client
 * (Microsoft's JavaScript SDK, raw JSON) reads it; the manifest's counts and SHA-256 match the files; a missing or
 * corrupt manifest, a truncated file and a bad line each fail with one line and write nothing.
 */
class BackupIT {
    private static final String SOURCE = "backupsource";
    private static Path export;
    private static List<String> sourceDump;

    @BeforeAll
    static void exportTheSource(@TempDir Path temp) throws Exception {
        assertThat(FidelityIT.client("fill", SOURCE)).contains("filled " + SOURCE);
        sourceDump = FidelityIT.client("dump", SOURCE).lines().toList();
        assertThat(sourceDump).hasSize(67);
        export = temp.resolve("export");
        Cli.Run run = Cli.run("export", "--source-connection-string", cs(), "--source-table", SOURCE,
                "--to", export.toString(), "--page-size", "7");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("exported 67 rows in");
    }

    @Test
    void aFolderExportRestoresIdenticalThroughAnotherClient() throws Exception {
        Cli.Run run = Cli.run("import", "--from", export.toString(), "--dest-connection-string", cs(),
                "--dest-table", "backupfolder");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("imported 67 rows");
        assertThat(FidelityIT.client("dump", "backupfolder").lines().toList()).isEqualTo(sourceDump);
    }

    @Test
    void theManifestCountsAndHashesMatchTheFiles() throws Exception {
        Manifest manifest = Manifest.parse(Files.readAllBytes(export.resolve("manifest.json")));
        assertThat(manifest.totalRows()).isEqualTo(67);
        assertThat(manifest.sourceTable()).isEqualTo(SOURCE);
        assertThat(manifest.sourceAccount()).isEqualTo("devstoreaccount1"); // the connection string's AccountName
        assertThat(manifest.files()).isNotEmpty();
        long rows = 0;
        for (Manifest.DataFile file : manifest.files()) {
            byte[] data = Files.readAllBytes(export.resolve(file.name()));
            assertThat(file.name()).matches("part-\\d{5}-\\d{5}-[0-9a-f]{8}\\.jsonl\\.gz"); // the run's id last
            assertThat(data.length).isEqualTo(file.bytes());
            assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)))
                    .isEqualTo(file.sha256());
            long lines = gunzip(data).lines().count();
            assertThat(lines).isEqualTo(file.rows());
            rows += lines;
        }
        assertThat(rows).isEqualTo(67);
        String json = Files.readString(export.resolve("manifest.json"));
        assertThat(json).doesNotContain(LocalServices.azurite().accountKey()).doesNotContain("AccountKey");
        // one entity per line as the REST API's insert JSON: typed properties annotated
        String lines = gunzip(Files.readAllBytes(export.resolve(manifest.files().getFirst().name())));
        assertThat(lines).contains("\"PartitionKey\":").contains("@odata.type\":\"Edm.");
    }

    @Test
    void eachLineKeepsTheSourcesTimestampForReferenceAndTheImportDoesNotRestoreIt() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> exported = new HashMap<>();
        for (Manifest.DataFile file : Manifest.parse(Files.readAllBytes(export.resolve("manifest.json"))).files()) {
            for (String line : gunzip(Files.readAllBytes(export.resolve(file.name()))).lines().toList()) {
                JsonNode row = json.readTree(line);
                assertThat(row.get("Timestamp@odata.type").asText()).isEqualTo("Edm.DateTime");
                exported.put(row.get("PartitionKey").asText() + "\u0000" + row.get("RowKey").asText(),
                        row.get("Timestamp").asText());
            }
        }
        Map<String, String> source = timestamps(SOURCE); // as the JavaScript SDK reads the service's raw JSON
        assertThat(source).hasSize(67);
        assertThat(exported).as("the service's own text, 7 fraction digits").isEqualTo(source);

        Cli.Run run = Cli.run("import", "--from", export.toString(), "--dest-connection-string", cs(),
                "--dest-table", "backuptimestamps");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        Map<String, String> restored = timestamps("backuptimestamps");
        assertThat(restored.keySet()).isEqualTo(source.keySet());
        assertThat(restored).as("the service sets its own Timestamp on every write").doesNotContainEntry(
                source.keySet().iterator().next(), source.values().iterator().next());
    }

    private static Map<String, String> timestamps(String table) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> timestamps = new HashMap<>();
        for (String line : FidelityIT.client("timestamps", table).lines().toList()) {
            JsonNode row = json.readTree(line);
            timestamps.put(row.get("pk").asText() + "\u0000" + row.get("rk").asText(), row.get("timestamp").asText());
        }
        return timestamps;
    }

    @Test
    void aBlobExportUnderAPrefixRestoresIdentical() throws Exception {
        // One alias for both: a connection string with a TableEndpoint and a BlobEndpoint.
        String both = cs() + AzuriteBlob.shared().connectionString().replaceAll(".*(BlobEndpoint=[^;]*;).*", "$1");
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_BK_CONNECTION_STRING", both);
        Cli.Run out = Cli.run(env, "export", "--source-account", "bk", "--source-table", SOURCE,
                "--to-container", "backups", "--to-prefix", "nightly/1", "--to-account", "bk");
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        Cli.Run again = Cli.run(env, "export", "--source-account", "bk", "--source-table", SOURCE,
                "--to-container", "backups", "--to-prefix", "nightly/1", "--to-account", "bk");
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("already holds a finished export");

        Cli.Run in = Cli.run("import", "--from-container", "backups", "--from-prefix", "nightly/1",
                "--from-connection-string", AzuriteBlob.shared().connectionString(),
                "--dest-connection-string", cs(), "--dest-table", "backupblob");
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(FidelityIT.client("dump", "backupblob").lines().toList()).isEqualTo(sourceDump);
        assertThat(out.out() + out.err() + in.out() + in.err()).doesNotContain(LocalServices.azurite().accountKey());
    }

    @Test
    void aBlobEndpointWithASasTokenWorksAndTheTokenShowsNowhere() throws Exception {
        var service = new com.azure.storage.blob.BlobServiceClientBuilder()
                .connectionString(AzuriteBlob.shared().connectionString())
                .serviceVersion(io.tablescan.backup.BlobStore.SERVICE_VERSION).buildClient(); // one Azurite takes
        String sas = service.generateAccountSas(new com.azure.storage.common.sas.AccountSasSignatureValues(
                java.time.OffsetDateTime.now().plusHours(1),
                com.azure.storage.common.sas.AccountSasPermission.parse("rwlc"),
                com.azure.storage.common.sas.AccountSasService.parse("b"),
                com.azure.storage.common.sas.AccountSasResourceType.parse("sco")));
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_SASBK_BLOB_ENDPOINT", AzuriteBlob.shared().endpoint(),
                "TABLESCAN_ACCOUNT_SASBK_SAS_TOKEN", sas, "TABLESCAN_ACCOUNT_SRC_CONNECTION_STRING", cs());
        Cli.Run out = Cli.run(env, "export", "--source-account", "src", "--source-table", SOURCE,
                "--to-container", "sasbackups", "--to-account", "sasbk");
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        Cli.Run in = Cli.run(env, "import", "--from-container", "sasbackups", "--from-account", "sasbk",
                "--dest-account", "src", "--dest-table", "backupsas");
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(FidelityIT.client("dump", "backupsas").lines().toList()).isEqualTo(sourceDump);
        String signature = sas.replaceAll(".*sig=([^&]*).*", "$1");
        assertThat(out.out() + out.err() + in.out() + in.err()).doesNotContain(signature).doesNotContain("sig=");
        byte[] manifest = service.getBlobContainerClient("sasbackups").getBlobClient("manifest.json")
                .downloadContent().toBytes();
        assertThat(Manifest.parse(manifest).sourceAccount()).isEqualTo("src");
    }

    @Test
    void onAClusterExportAndImportWorkInANamespaceOfTheirOwnAndLeaveNoTopic(@TempDir Path temp) throws Exception {
        String bootstrap = LocalServices.broker().bootstrapServers();
        Cli.Run out = Cli.run("export", "--source-connection-string", cs(), "--source-table", SOURCE,
                "--to", temp.toString(), "--kafka", bootstrap);
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        Cli.Run in = Cli.run("import", "--from", temp.toString(), "--dest-connection-string", cs(),
                "--dest-table", "backupcluster", "--kafka", bootstrap);
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(in.out()).contains("imported 67 rows into backupcluster");
        assertThat(FidelityIT.client("dump", "backupcluster").lines().toList()).isEqualTo(sourceDump);
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            assertThat(admin.listTopics().names().get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .noneMatch(topic -> topic.contains("export-"));
        }
    }

    @Test
    void anEmptyTableExportsAManifestOfNoFilesAndImportsAsAnEmptyTable(@TempDir Path temp) throws Exception {
        LocalServices.store().createTableIfNotExists("backupempty");
        Cli.Run out = Cli.run("export", "--source-connection-string", cs(), "--source-table", "backupempty",
                "--to", temp.toString());
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        Manifest manifest = Manifest.parse(Files.readAllBytes(temp.resolve("manifest.json")));
        assertThat(manifest.totalRows()).isZero();
        assertThat(manifest.files()).isEmpty();
        Cli.Run in = Cli.run("import", "--from", temp.toString(), "--dest-connection-string", cs(),
                "--dest-table", "backupemptyrestored");
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(LocalServices.store().tableExists("backupemptyrestored")).isTrue();
    }

    @Test
    void aMissingManifestIsNoFinishedExport(@TempDir Path temp) throws Exception {
        copyExport(temp);
        Files.delete(temp.resolve("manifest.json"));
        assertRefused(temp, "badnomanifest", 4, "no manifest.json in");
    }

    @Test
    void aMissingDataFileIsACorruptExport(@TempDir Path temp) throws Exception {
        copyExport(temp);
        Files.delete(temp.resolve(lastFile()));
        assertRefused(temp, "badmissingfile", 1, lastFile() + " is not valid: it is listed in manifest.json but missing");
    }

    @Test
    void aCorruptManifestIsRefused(@TempDir Path temp) throws Exception {
        copyExport(temp);
        Files.writeString(temp.resolve("manifest.json"), "{\"formatVersion\": 1, \"files\": [");
        assertRefused(temp, "badmanifest", 1, "manifest.json is not valid");
    }

    @Test
    void aTruncatedFileWritesNothing(@TempDir Path temp) throws Exception {
        copyExport(temp);
        Path file = temp.resolve(lastFile());
        byte[] data = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(data, data.length / 2));
        assertRefused(temp, "badtruncated", 1, lastFile() + " is not valid: it has");
    }

    @Test
    void aBadLineWritesNothingEvenWhenItsHashIsRight(@TempDir Path temp) throws Exception {
        copyExport(temp);
        // Rewrite the last file with a bad line and give the manifest its true size and hash: only the line is wrong.
        String name = lastFile();
        List<String> lines = new java.util.ArrayList<>(gunzip(Files.readAllBytes(temp.resolve(name))).lines().toList());
        lines.set(0, "{\"PartitionKey\":\"x\",\"RowKey\":\"y\",\"N@odata.type\":\"Edm.Int64\",\"N\":\"twelve\"}");
        byte[] bad = gzip(String.join("\n", lines) + "\n");
        Files.write(temp.resolve(name), bad);
        Manifest m = Manifest.parse(Files.readAllBytes(temp.resolve("manifest.json")));
        List<Manifest.DataFile> files = m.files().stream().map(f -> !f.name().equals(name) ? f
                : new Manifest.DataFile(name, f.rows(), bad.length, HexFormat.of().formatHex(
                        sha256(bad)))).toList();
        Files.write(temp.resolve("manifest.json"), new Manifest(m.formatVersion(), m.sourceAccount(), m.sourceTable(),
                m.scanId(), m.startTime(), m.endTime(), m.filter(), m.select(), m.fromPartition(), m.toPartition(),
                m.totalRows(), files, m.topicPartitions(), null).toJson());
        assertRefused(temp, "badline", 1, name + " is not valid: line 1 is not a row: property N is not a valid");
    }

    private static void assertRefused(Path folder, String table, int exitCode, String message) {
        Cli.Run run = Cli.run("import", "--from", folder.toString(), "--dest-connection-string", cs(),
                "--dest-table", table);
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(exitCode);
        assertThat(run.err()).contains(message).contains("nothing was written").doesNotContain("Exception")
                .doesNotContain("\tat ");
        assertThat(run.err().lines().count()).isEqualTo(1);
        assertThat(LocalServices.store().tableExists(table)).as("nothing written").isFalse();
    }

    private static String lastFile() throws IOException {
        Manifest manifest = Manifest.parse(Files.readAllBytes(export.resolve("manifest.json")));
        return manifest.files().getLast().name();
    }

    private static void copyExport(Path to) throws IOException {
        try (var files = Files.list(export)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    private static String cs() {
        return LocalServices.azurite().connectionString();
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String gunzip(byte[] data) throws IOException {
        try (var in = new GZIPInputStream(new java.io.ByteArrayInputStream(data))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
