package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.backup.Manifest;
import io.tablescan.cli.Cli;
import io.tablescan.cli.DifferenceReport;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify --from} as a user types it, on Azurite: an export of a table with every type and odd keys verifies
 * equal; after the source changed (a row deleted, one DateTime by 100 ns, a row added) it reports exactly 1 missing
 * from the export, 1 different and 1 extra, exit 7, a report line each; a corrupt export and a selection option
 * that contradicts the export's are one line each; an export in a Blob container verifies too.
 */
class VerifyExportIT {
    private static final String SAME = "vexsame";
    private static final String ALTERED = "vexaltered";
    static TableStore store;
    static String cs;
    static List<Row> rows;
    static Path sameExport;

    @BeforeAll
    static void tables(@TempDir Path temp) {
        store = LocalServices.store();
        cs = LocalServices.azurite().connectionString();
        rows = new ArrayList<>(SampleTable.rows(150));
        Random random = new Random(7);
        for (String pk : OddKeys.KEYS) {
            for (String rk : List.of("", "'", "r\uFFFF", "z")) {
                rows.add(SampleTable.row(pk, rk, random));
            }
        }
        SampleTable.write(store, SAME, rows, 8);
        SampleTable.write(store, ALTERED, rows, 8);
        sameExport = temp.resolve("same");
        export(SAME, sameExport);
    }

    static void export(String table, Path folder, String... options) {
        List<String> args = new ArrayList<>(List.of("export", "--source-connection-string", cs, "--source-table", table,
                "--to", folder.toString(), "--page-size", "40"));
        args.addAll(List.of(options));
        Cli.Run run = run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    }

    static Cli.Run verify(String table, Path folder, String... options) {
        List<String> args = new ArrayList<>(List.of("verify", "--source-connection-string", cs, "--source-table", table,
                "--from", folder.toString()));
        args.addAll(List.of(options));
        return run(args.toArray(String[]::new));
    }

    @Test
    void anExportOfAnUnchangedTableIsEqual() throws Exception {
        Manifest manifest = Manifest.parse(Files.readAllBytes(sameExport.resolve(Manifest.NAME)));
        assertThat(manifest.topicPartitions()).isNotNull().isPositive();
        Path report = Files.createTempFile("vex", ".jsonl");
        Cli.Run run = verify(SAME, sameExport, "--page-size", "33", "--report", report.toString());
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("equal: " + rows.size() + " rows compared, no differences");
        assertThat(Files.readString(report)).isEmpty();
        Files.deleteIfExists(report);
    }

    /** The manifest names the table exported: compared with another, the verify says so; it writes no rows. */
    @Test
    void anExportOfAnotherTableSaysSoAndWritesNothing() {
        SampleTable.write(store, "vexother", rows, 8);
        Cli.Run run = verify("vexother", sameExport);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.err()).contains("warning: the export in " + sameExport + " is of table " + SAME + ", not of "
                + "--source-table vexother: compared all the same");
        assertThat(run.out()).contains("rows read:").doesNotContain("rows written");
        assertThat(verify(SAME.toUpperCase(java.util.Locale.ROOT), sameExport).err()).as("the same table")
                .doesNotContain("warning");
    }

    @Test
    void aChangedSourceGivesExactlyOneOfEachKind(@TempDir Path temp) throws Exception {
        Path folder = temp.resolve("altered");
        export(ALTERED, folder);
        Row deleted = rows.get(10);
        Row changed = rows.stream().filter(r -> r.partitionKey().equals("a'b") && r.rowKey().equals("'")).findFirst()
                .orElseThrow();
        assertThat(store.delete(ALTERED, deleted.partitionKey(), deleted.rowKey())).isTrue();
        List<RowProperty> properties = new ArrayList<>();
        for (RowProperty p : changed.properties()) {
            properties.add(p.name().equals("Published")
                    ? new RowProperty("Published", EdmType.DATETIME, (Long) p.value() + 1) : p); // 100 ns later
        }
        store.upsert(ALTERED, changed.partitionKey(), List.of(new Row(changed.partitionKey(), changed.rowKey(),
                properties)));
        store.upsert(ALTERED, "\uE000", List.of(SampleTable.row("\uE000", "added", new Random(1))));

        Path report = Files.createTempFile("vex", ".jsonl");
        Cli.Run run = verify(ALTERED, folder, "--report", report.toString());
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.DIFFERENT);
        assertThat(run.out()).contains("different: 1 missing, 1 different, 1 extra")
                .contains("first missing from the export (1):").contains("(\"\uE000\", \"added\")")
                .contains("first extra in the export (1):")
                .contains(DifferenceReport.key(deleted.partitionKey(), deleted.rowKey()));
        List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(3);
        assertThat(lines).anyMatch(l -> l.startsWith("{\"kind\":\"missing\"") && l.contains("\"rowKey\":\"added\""));
        assertThat(lines).anyMatch(l -> l.startsWith("{\"kind\":\"extra\""));
        assertThat(lines).anyMatch(l -> l.startsWith("{\"kind\":\"different\",\"partitionKey\":\"a'b\",\"rowKey\":\"'\""));
        // One property, by one tick: the 7th fraction digit, in the service's wire form.
        assertThat(String.join("\n", lines)).containsPattern("\"properties\":\\[\\{\"name\":\"Published\",\"source\":"
                + "\\{\"type\":\"Edm.DateTime\",\"value\":\"[0-9T:.-]+\\d{7}Z\"},\"destination\":\\{\"type\":"
                + "\"Edm.DateTime\",\"value\":\"[0-9T:.-]+\\d{7}Z\"}}]}");
        Files.deleteIfExists(report);
    }

    @Test
    void aCorruptExportIsOneLine(@TempDir Path temp) throws Exception {
        Path folder = temp.resolve("copy");
        Files.createDirectories(folder);
        try (var files = Files.list(sameExport)) {
            for (Path file : files.toList()) {
                Files.copy(file, folder.resolve(file.getFileName()));
            }
        }
        Manifest manifest = Manifest.parse(Files.readAllBytes(folder.resolve(Manifest.NAME)));
        Path first = folder.resolve(manifest.files().getFirst().name());
        byte[] data = Files.readAllBytes(first);
        data[data.length / 2] ^= 1;
        Files.write(first, data);
        assertOneLine(verify(SAME, folder), UserError.FAILED, manifest.files().getFirst().name()
                + " is not valid: its SHA-256 is not the manifest's; nothing was compared");
        Files.delete(folder.resolve(Manifest.NAME));
        assertOneLine(verify(SAME, folder), UserError.NOT_FOUND, "not a finished export");
    }

    @Test
    void theExportsSelectionIsComparedAndAnotherIsRefused(@TempDir Path temp) throws Exception {
        Path folder = temp.resolve("selected");
        export(SAME, folder, "--filter", "Major lt 10", "--select", "Id,Published", "--from-partition", "a");
        Cli.Run run = verify(SAME, folder);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        long selected = rows.stream().filter(r -> r.partitionKey().compareTo("a") >= 0
                && (Integer) r.properties().get(2).value() < 10).count();
        assertThat(run.out()).contains("equal: " + selected + " rows compared, no differences");
        assertThat(verify(SAME, folder, "--filter", "Major lt 10", "--select", "Id,Published", "--from-partition", "a")
                .exitCode()).isZero();
        assertOneLine(verify(SAME, folder, "--filter", "Major lt 11"), UserError.USAGE,
                "--filter is not the export's own selection");
        assertOneLine(verify(SAME, folder, "--partition-prefix", "a"), UserError.USAGE,
                "--partition-prefix/--from-partition/--to-partition is not the export's own");
        assertOneLine(run("verify", "--source-connection-string", cs, "--source-table", SAME, "--from",
                folder.toString(), "--dest-table", "x"), UserError.USAGE, "give one of --dest-table TABLE");
    }

    @Test
    void anExportInABlobContainerVerifies() {
        String blob = AzuriteBlob.shared().connectionString();
        Cli.Run out = run("export", "--source-connection-string", cs, "--source-table", SAME, "--to-container",
                "vexbackups", "--to-prefix", "n/1", "--to-connection-string", blob);
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        Cli.Run run = run("verify", "--source-connection-string", cs, "--source-table", SAME, "--from-container",
                "vexbackups", "--from-prefix", "n/1", "--from-connection-string", blob);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("equal: " + rows.size() + " rows compared");
        assertThat(run.out() + run.err()).doesNotContain(LocalServices.azurite().accountKey()).doesNotContain("AccountKey");
    }
}
