package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rerun of an export killed after its manifest takes that manifest as its own, and only its own scan's. */
class ExportFilesTest {
    private static Manifest manifest(String scanId) {
        return new Manifest(Manifest.FORMAT_VERSION, "acct", "T", scanId, "2026-12-07T00:00:00Z",
                "2026-12-07T00:01:00Z", null, null, null, null, 1, List.of(new Manifest.DataFile("part-0-abcd.jsonl.gz",
                        1, 10, "0".repeat(64))), 1, null);
    }

    @Test
    void aManifestOfTheSameScanIsTheFinishedExportAnotherScansIsNot(@TempDir Path dir) {
        FolderStore store = new FolderStore(dir);
        store.prepare();
        assertThat(ExportFiles.finishedBefore(store, "scan-1")).as("no manifest yet").isNull();

        store.write(Manifest.NAME, manifest("scan-1").toJson());

        assertThat(ExportFiles.finishedBefore(store, "scan-1").scanId()).isEqualTo("scan-1");
        assertThat(ExportFiles.finishedBefore(store, "scan-2")).as("another export's: refused as before").isNull();
        store.write(Manifest.NAME, "{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(ExportFiles.finishedBefore(store, "scan-1")).isNull();
    }
}
