package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.ListBlobsOptions;
import io.tablescan.backup.ExportClaim;
import io.tablescan.backup.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One export per target: two exports of different tables started at the same moment onto one folder, and onto one
 * Blob prefix; exactly one succeeds, the other exits 2 with one line and leaves the winner's files alone, and the
 * finished export imports equal to the winner's source as Microsoft's JavaScript SDK reads both. A claim left by a
 * killed export is named, with how to clear it; a file given as the folder is one line.
 */
class ExportClaimIT {
    private static final String SMALL = "claimsmall";
    private static final String LARGE = "claimlarge";
    private static final Map<String, List<String>> DUMPS = new HashMap<>();

    @BeforeAll
    static void twoSources() throws Exception {
        SampleTable.write(LocalServices.store(), SMALL, SampleTable.rows(300), 8);
        SampleTable.write(LocalServices.store(), LARGE, SampleTable.rows(3_000), 8);
        for (String table : List.of(SMALL, LARGE)) {
            DUMPS.put(table, FidelityIT.client("dump", table).lines().toList());
        }
    }

    @Test
    void twoExportsOntoOneFolderAtOnceOneWinsTheOtherIsRefused(@TempDir Path folder) throws Exception {
        String winner = race("folder", List.of("--to", folder.toString()));
        Manifest manifest = Manifest.parse(Files.readAllBytes(folder.resolve(Manifest.NAME)));
        assertThat(manifest.sourceTable()).isEqualTo(winner);
        Set<String> present = new TreeSet<>();
        try (var files = Files.list(folder)) {
            files.forEach(file -> present.add(file.getFileName().toString()));
        }
        assertThat(present).as("the manifest and its files, nothing of the loser, no claim left")
                .isEqualTo(expected(manifest, name -> name));
        assertImportsEqual(winner, "claimfolderrestored", "--from", folder.toString());
    }

    @Test
    void twoExportsOntoOneBlobPrefixAtOnceOneWinsTheOtherIsRefused() throws Exception {
        String winner = race("blob", List.of("--to-container", "claims", "--to-prefix", "race/1", "--to-account", "race"));
        BlobContainerClient container = new BlobServiceClientBuilder()
                .connectionString(AzuriteBlob.shared().connectionString())
                .serviceVersion(io.tablescan.backup.BlobStore.SERVICE_VERSION).buildClient() // a version Azurite takes
                .getBlobContainerClient("claims");
        Manifest manifest = Manifest.parse(container.getBlobClient("race/1/" + Manifest.NAME).downloadContent().toBytes());
        assertThat(manifest.sourceTable()).isEqualTo(winner);
        Set<String> present = new TreeSet<>();
        container.listBlobs(new ListBlobsOptions().setPrefix("race/1/"), null).forEach(blob -> present.add(blob.getName()));
        assertThat(present).isEqualTo(expected(manifest, name -> "race/1/" + name));
        assertImportsEqual(winner, "claimblobrestored", "--from-container", "claims", "--from-prefix", "race/1",
                "--from-connection-string", AzuriteBlob.shared().connectionString());
    }

    @Test
    void aClaimLeftByAKilledExportIsNamedAndCanBeCleared(@TempDir Path folder) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Files.writeString(folder.resolve(ExportClaim.NAME), "{\"runId\":\"0badc0de\",\"host\":\""
                + java.net.InetAddress.getLocalHost().getHostName() + "\",\"pid\":" + gone.pid()
                + ",\"started\":\"2026-11-25T20:36:00Z\"}");
        Cli.Run refused = export(SMALL, "--to", folder.toString());
        assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(2);
        assertThat(refused.err().lines().toList()).hasSize(1);
        assertThat(refused.err()).contains("is being written by another export (pid " + gone.pid())
                .contains("no longer running").contains("delete " + folder.resolve(ExportClaim.NAME))
                .doesNotContain("Exception");
        assertThat(refused.out()).isEmpty();

        Files.delete(folder.resolve(ExportClaim.NAME));
        Cli.Run again = export(SMALL, "--to", folder.toString());
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(folder.resolve(ExportClaim.NAME)).as("the claim ends with the export").doesNotExist();
    }

    @Test
    void aFileGivenAsTheFolderIsOneLine(@TempDir Path temp) throws Exception {
        Path file = Files.writeString(temp.resolve("not-a-folder"), "x");
        Cli.Run run = export(SMALL, "--to", file.toString());
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(run.err().lines().toList()).hasSize(1);
        assertThat(run.err()).contains(file + " is a file, not a folder").doesNotContain("Exception");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    /** Starts an export of each table onto one target at once; returns the table of the one that succeeded. */
    private static String race(String name, List<String> target) throws Exception {
        String both = LocalServices.azurite().connectionString()
                + AzuriteBlob.shared().connectionString().replaceAll(".*(BlobEndpoint=[^;]*;).*", "$1");
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_RACE_CONNECTION_STRING", both);
        Map<String, Process> exports = new HashMap<>();
        try (ChildProcesses children = new ChildProcesses("export-claim-" + name + "-" + System.nanoTime())) {
            for (String table : List.of(LARGE, SMALL)) {
                List<String> args = new ArrayList<>(List.of("export", "--source-account", "race", "--source-table", table));
                args.addAll(target);
                exports.put(table, children.start(table, env, args.toArray(String[]::new)));
            }
            List<String> won = new ArrayList<>();
            for (String table : List.of(LARGE, SMALL)) {
                Process export = exports.get(table);
                assertThat(export.waitFor(3, TimeUnit.MINUTES)).as(table + " ended").isTrue();
                String output = children.output(table);
                if (export.exitValue() == 0) {
                    assertThat(output).contains("exported " + String.format("%,d", DUMPS.get(table).size()) + " rows");
                    won.add(table);
                } else {
                    assertThat(export.exitValue()).as(output).isEqualTo(2);
                    // Its own lines, without the JVM's warnings and the test class path's logback status lines.
                    List<String> lines = output.lines().filter(line -> !line.isBlank() && !line.startsWith("WARNING: ")
                            && !line.matches("\\d\\d:\\d\\d:\\d\\d,\\d{3} \\|-.*")).toList();
                    assertThat(lines).as(output).hasSize(1);
                    // A loser whose JVM started late finds the winner's export finished already.
                    assertThat(lines.getFirst()).startsWith("tablescan: ").containsAnyOf(
                            "is being written by another export", "already holds a finished export")
                            .doesNotContain("Exception");
                }
            }
            assertThat(won).as("exactly one export succeeds").hasSize(1);
            return won.getFirst();
        }
    }

    private static Set<String> expected(Manifest manifest, Function<String, String> path) {
        Set<String> names = new TreeSet<>();
        names.add(path.apply(Manifest.NAME));
        manifest.files().forEach(file -> names.add(path.apply(file.name())));
        return names;
    }

    private static void assertImportsEqual(String source, String restored, String... from) throws Exception {
        List<String> args = new ArrayList<>(List.of("import"));
        args.addAll(List.of(from));
        args.addAll(List.of("--dest-connection-string", LocalServices.azurite().connectionString(), "--dest-table",
                restored));
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(FidelityIT.client("dump", restored).lines().toList()).isEqualTo(DUMPS.get(source));
    }

    private static Cli.Run export(String table, String... target) {
        List<String> args = new ArrayList<>(List.of("export", "--source-connection-string",
                LocalServices.azurite().connectionString(), "--source-table", table));
        args.addAll(List.of(target));
        return Cli.run(args.toArray(String[]::new));
    }
}
