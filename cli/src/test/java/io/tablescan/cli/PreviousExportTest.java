package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.backup.Manifest;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The previous export an export's time left is estimated from: same rows, next to its target, the most recent. */
class PreviousExportTest {
    @TempDir
    Path backups;

    private void export(String folder, String table, String filter, String start, long rows) throws Exception {
        Path dir = Files.createDirectories(backups.resolve(folder));
        Files.write(dir.resolve(Manifest.NAME), new Manifest(Manifest.FORMAT_VERSION, "prod", table, "scan-1", start,
                start, filter, null, null, null, rows, List.of(new Manifest.DataFile("part-00000-00000-0a1b2c3d.jsonl.gz", rows, 99,
                "0".repeat(64))), 4, null).toJson());
    }

    private static ScanSpec spec(String table) {
        return ScanSpecs.copy().from(new TableRef("prod", table)).build();
    }

    @Test
    void theMostRecentFinishedExportOfTheSameRowsNextToTheTarget() throws Exception {
        export("2026-11-25", "Orders", null, "2026-11-25T01:00:00Z", 900);
        export("2026-11-26", "Orders", null, "2026-11-26T01:00:00Z", 1_000);
        export("2026-11-26-filtered", "Orders", "Status eq 'open'", "2026-11-26T02:00:00Z", 10);
        export("2026-11-26-users", "Users", null, "2026-11-26T03:00:00Z", 50);
        Files.createDirectories(backups.resolve("broken"));
        Files.writeString(backups.resolve("broken").resolve(Manifest.NAME), "{not json");
        String target = backups.resolve("2026-11-27").toString();

        assertThat(PreviousExport.find(target, "prod", spec("Orders")))
                .contains(new PreviousExport(backups.resolve("2026-11-26"), 1_000));
        assertThat(PreviousExport.find(target, "prod", spec("Users")).map(PreviousExport::rows)).contains(50L);
        assertThat(PreviousExport.find(target, "other", spec("Orders"))).as("another account's").isEmpty();
        assertThat(PreviousExport.find(target, "prod", spec("Invoices"))).isEmpty();
        assertThat(PreviousExport.find(null, "prod", spec("Orders"))).as("a Blob target").isEmpty();
    }
}
