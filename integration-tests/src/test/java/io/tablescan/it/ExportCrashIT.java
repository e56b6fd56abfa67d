package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RowJson;
import io.tablescan.backup.ExportFiles;
import io.tablescan.backup.FolderStore;
import io.tablescan.backup.Manifest;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanTotals;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once in files: an export's stage 1 on separate worker processes killed with SIGKILL at random moments,
 * then stage 2 and an import; every row is in exactly one listed file, and the restored table equals the source.
 * Then an import killed with SIGKILL mid-way and run again also restores the table exactly.
 */
class ExportCrashIT {
    private static final int ROWS = 20_000;

    @Test
    void workersKilledDuringAnExportLeaveEveryRowInExactlyOneFile(@TempDir Path folder) throws Exception {
        var store = LocalServices.store();
        SampleTable.write(store, "exportcrashsource", SampleTable.rows(ROWS), 16);
        try (CrashIT.Cluster cluster = new CrashIT.Cluster("export-crashes")) {
            var draft = ScanSpecs.copy().from(new TableRef("emulator", "exportcrashsource")).pageSize(200).build();
            String topic = Namespace.DEFAULT.topic("export-" + draft.getScanId());
            try (Admin admin = cluster.kafka.newAdmin()) {
                Topics.ensure(admin, List.of(new NewTopic(topic, Optional.of(6), Optional.empty())), Duration.ofSeconds(60));
            }
            var spec = io.tablescan.schema.ScanSpec.newBuilder(draft).setSink(io.tablescan.sink.SinkRefs.toWire(
                    new SinkRef("topic", null, topic, Map.of("key", "partition")))).build();
            ScanStarter.start(cluster.kafka, spec);

            List<String> kills = cluster.killDuring(spec.getScanId(), 6, 2_000);
            ScanTotals t = ScanAwait.ended(cluster.kafka, spec.getScanId(), Duration.ofMinutes(6));
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(kills).isNotEmpty();
            assertThat(t.rowsRead()).isEqualTo(ROWS);

            Manifest manifest = ExportFiles.write(cluster.kafka, topic, t, new FolderStore(folder));
            // a rerun of stage 2 over the same topic writes the same files (under its own run's names)
            Manifest again = ExportFiles.write(cluster.kafka, topic, t, new FolderStore(folder.resolve("again")));
            assertThat(again.files()).hasSameSizeAs(manifest.files());
            for (int i = 0; i < manifest.files().size(); i++) {
                Manifest.DataFile one = manifest.files().get(i);
                Manifest.DataFile two = again.files().get(i);
                assertThat(List.of(two.rows(), two.bytes(), two.sha256())).isEqualTo(List.of(one.rows(), one.bytes(), one.sha256()));
                assertThat(two.name().replaceAll("-[0-9a-f]+\\.jsonl\\.gz$", ""))
                        .isEqualTo(one.name().replaceAll("-[0-9a-f]+\\.jsonl\\.gz$", ""));
            }
            assertThat(manifest.totalRows()).isEqualTo(ROWS);
            Set<String> keys = new HashSet<>();
            for (Manifest.DataFile file : manifest.files()) {
                for (String line : BackupIT.gunzip(Files.readAllBytes(folder.resolve(file.name()))).lines().toList()) {
                    Row row = RowJson.parse(line.getBytes(StandardCharsets.UTF_8));
                    assertThat(keys.add(row.partitionKey() + "\u0000" + row.rowKey())).as("row once").isTrue();
                }
            }
            assertThat(keys).hasSize(ROWS);
        }
        Cli.Run in = Cli.run("import", "--from", folder.toString(), "--dest-connection-string",
                LocalServices.azurite().connectionString(), "--dest-table", "exportcrashrestored");
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(TableComparer.compare(store, "exportcrashsource", store, "exportcrashrestored").differences()).isZero();

        // An import killed with SIGKILL once it has written rows, then run again: the table converges.
        try (ChildProcesses children = new ChildProcesses("import-crash")) {
            Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING",
                    LocalServices.azurite().connectionString());
            Process importer = children.start("import", env, "import", "--from", folder.toString(), "--dest-account",
                    "emulator", "--dest-table", "importcrash");
            assertThat(FreePorts.await(() -> holdsRows("importcrash"), Duration.ofMinutes(3), importer::isAlive))
                    .as("the import wrote rows").isTrue();
            importer.destroyForcibly();
            assertThat(importer.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        Cli.Run rerun = Cli.run("import", "--from", folder.toString(), "--dest-connection-string",
                LocalServices.azurite().connectionString(), "--dest-table", "importcrash");
        assertThat(rerun.exitCode()).as(rerun.out() + rerun.err()).isZero();
        var check = TableComparer.compare(store, "exportcrashsource", store, "importcrash");
        assertThat(check.differences()).as(check.examples().toString()).isZero();
        assertThat(check.destinationRows()).isEqualTo(ROWS);
    }

    private static boolean holdsRows(String table) {
        var store = LocalServices.store();
        try {
            return store.tableExists(table)
                    && !store.query(table, KeyRange.ALL, new QueryOptions(1, List.of(), null), null).rows().isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
