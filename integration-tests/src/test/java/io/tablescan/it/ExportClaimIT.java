package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.ListBlobsOptions;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.BlobStore;
import io.tablescan.backup.ExportClaim;
import io.tablescan.backup.FolderStore;
import io.tablescan.backup.Manifest;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One export per target: two exports of different tables started at the same moment onto one folder, and onto one
 * Blob prefix; exactly one succeeds, the other exits 2 with one line and leaves the winner's files alone, and the
 * finished export imports equal to the winner's source as Microsoft's JavaScript SDK reads both. A claim left by a
 * killed export is named, with how to clear it; a claim another export took as this one lets go stays; SIGTERM
 * (or two Ctrl-Cs) mid-export removes the claim; a file given as the folder is one line.
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
        BlobContainerClient container = blobContainer();
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

    @Test
    void aClaimAnotherExportTookAsThisOneEndsIsLeftInPlace(@TempDir Path folder) throws Exception {
        byte[] other = "{\"runId\":\"0therrun\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ExportClaim.take(new TakenOver(new FolderStore(folder), other)).close();
        assertThat(Files.readAllBytes(folder.resolve(ExportClaim.NAME))).as("the other export's claim").isEqualTo(other);
        try (var files = Files.list(folder)) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactly(ExportClaim.NAME);
        }

        ExportClaim.take(new TakenOver(BlobStore.fromConnectionString(AzuriteBlob.shared().connectionString(), "claims",
                "taken/1"), other)).close();
        assertThat(blobContainer().getBlobClient("taken/1/" + ExportClaim.NAME).downloadContent().toBytes())
                .as("the other export's claim").isEqualTo(other);
    }

    /**
     * A target whose claim is replaced by another export's the moment this one goes to let it go: the user deleted
     * it by hand and started another export onto the target, just then.
     */
    private static final class TakenOver implements BackupStore {
        private final BackupStore store;
        private final byte[] other;
        private boolean taken;

        TakenOver(BackupStore store, byte[] other) {
            this.store = store;
            this.other = other;
        }

        private void takeOver(String name) {
            if (name.equals(ExportClaim.NAME) && !taken) {
                taken = true;
                store.delete(name);
                assertThat(store.create(name, other)).isTrue();
            }
        }

        @Override
        public byte[] read(String name) {
            byte[] read = store.read(name);
            takeOver(name);
            return read;
        }

        @Override
        public boolean deleteIfSame(String name, byte[] data) {
            takeOver(name);
            return store.deleteIfSame(name, data);
        }

        @Override
        public void prepare() {
            store.prepare();
        }

        @Override
        public boolean exists(String name) {
            return store.exists(name);
        }

        @Override
        public void write(String name, byte[] data) {
            store.write(name, data);
        }

        @Override
        public boolean create(String name, byte[] data) {
            return store.create(name, data);
        }

        @Override
        public void delete(String name) {
            store.delete(name);
        }

        @Override
        public String describe() {
            return store.describe();
        }

        @Override
        public String describe(String name) {
            return store.describe(name);
        }
    }

    @Test
    void sigtermMidExportReleasesTheClaimOnAFolder(@TempDir Path folder) throws Exception {
        stopMidExport("sigterm-folder", List.of("--to", folder.toString()), 1, "TERM",
                () -> Files.exists(folder.resolve(ExportClaim.NAME)), () -> Files.exists(folder.resolve(Manifest.NAME)));
    }

    @Tag("release") // default tier: SIGTERM releases a folder's claim, a second Ctrl-C a Blob prefix's
    @Test
    void sigtermMidExportReleasesTheClaimOnABlobPrefix() throws Exception {
        BlobContainerClient container = blobContainer();
        stopMidExport("sigterm-blob", List.of("--to-container", "claims", "--to-prefix", "term/1", "--to-account", "race"),
                1, "TERM", () -> container.getBlobClient("term/1/" + ExportClaim.NAME).exists(),
                () -> container.getBlobClient("term/1/" + Manifest.NAME).exists());
    }

    @Test
    void aSecondCtrlCMidExportReleasesTheClaimOnABlobPrefix() throws Exception {
        BlobContainerClient container = blobContainer();
        stopMidExport("twice-blob", List.of("--to-container", "claims", "--to-prefix", "twice/1", "--to-account", "race"),
                2, "INT", () -> container.getBlobClient("twice/1/" + ExportClaim.NAME).exists(),
                () -> container.getBlobClient("twice/1/" + Manifest.NAME).exists());
    }

    /**
     * Exports the large table slowly in a child JVM, sends {@code signal} {@code times} once rows are being read
     * (its claim there), and expects the process to end with no claim and no manifest left.
     */
    private static void stopMidExport(String name, List<String> target, int times, String signal,
            BooleanSupplier claimed, BooleanSupplier finished) throws Exception {
        Map<String, String> env = new HashMap<>(bothAccounts());
        env.putAll(InterruptIT.env(InterruptIT.temporaryFolder("export-claim-" + name)));
        try (ChildProcesses children = new ChildProcesses("export-claim-" + name)) {
            // Capped, so it is still running when the signal comes: a quiet machine exported it in 9 s, before the
            // first progress line.
            List<String> args = new ArrayList<>(List.of("export", "--source-account", "race", "--source-table", LARGE,
                    "--page-size", "20", "--max-rate", "150"));
            args.addAll(target);
            Process export = children.start("export", env, args.toArray(String[]::new));
            InterruptIT.awaitCopying(children, "export", export);
            assertThat(claimed.getAsBoolean()).as("claimed while it runs").isTrue();
            for (int i = 0; i < times; i++) {
                new ProcessBuilder("kill", "-" + signal, Long.toString(export.pid())).inheritIO().start().waitFor();
            }
            assertThat(export.waitFor(90, TimeUnit.SECONDS)).as("ends: " + children.output("export")).isTrue();
            assertThat(export.exitValue()).as(children.output("export"))
                    .isEqualTo(signal.equals("TERM") ? 143 : UserError.INTERRUPTED);
            assertThat(claimed.getAsBoolean()).as("the claim is gone: " + children.output("export")).isFalse();
            assertThat(finished.getAsBoolean()).as("no manifest").isFalse();
            assertThat(children.output("export")).doesNotContain("could not remove");
        }
    }

    private static BlobContainerClient blobContainer() {
        return new BlobServiceClientBuilder().connectionString(AzuriteBlob.shared().connectionString())
                .serviceVersion(BlobStore.SERVICE_VERSION).buildClient().getBlobContainerClient("claims");
    }

    /** The account alias "race": the tables' Azurite and the Blob service in one connection string. */
    private static Map<String, String> bothAccounts() {
        String both = LocalServices.azurite().connectionString()
                + AzuriteBlob.shared().connectionString().replaceAll(".*(BlobEndpoint=[^;]*;).*", "$1");
        return Map.of("TABLESCAN_ACCOUNT_RACE_CONNECTION_STRING", both);
    }

    /** Starts an export of each table onto one target at once; returns the table of the one that succeeded. */
    private static String race(String name, List<String> target) throws Exception {
        Map<String, String> env = bothAccounts();
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
