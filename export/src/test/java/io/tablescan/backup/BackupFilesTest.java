package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.azure.RowJson;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Data files and manifests: deterministic files, every check of an import, batches of one partition. */
class BackupFilesTest {
    private static Row row(String pk, String rk) {
        return new Row(pk, rk, List.of(new RowProperty("N", EdmType.INT64, 5L)));
    }

    private static PartFile.Finished file(String name, List<Row> rows) {
        PartFile file = new PartFile(name);
        rows.forEach(r -> file.add(RowJson.toJson(r)));
        return file.finish();
    }

    @Test
    void theSameRowsMakeTheSameBytes() {
        List<Row> rows = List.of(row("a", "1"), row("a", "2"), row("b", "1"));
        PartFile.Finished one = file(PartFile.name(3, 0), rows);
        PartFile.Finished two = file(PartFile.name(3, 0), rows);
        assertThat(one.data()).isEqualTo(two.data());
        assertThat(one.entry()).isEqualTo(two.entry());
        assertThat(one.entry().name()).isEqualTo("part-00003-00000.jsonl.gz");
        assertThat(one.entry().rows()).isEqualTo(3);
        assertThat(one.entry().bytes()).isEqualTo(one.data().length);
    }

    @Test
    void aStreamedFileHasTheBytesOfOneBuiltInMemoryAndAppearsOnlyWhenFinished(@TempDir Path dir) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            rows.add(row("p" + i / 7, Integer.toString(i)));
        }
        PartFile.Finished inMemory = file(PartFile.name(2, 0), rows);
        FolderStore store = new FolderStore(dir);
        PartFile streamed = new PartFile(PartFile.name(2, 0), store);
        rows.forEach(r -> streamed.add(RowJson.toJson(r)));
        assertThat(store.exists(PartFile.name(2, 0))).as("not under its name before it is finished").isFalse();
        PartFile.Finished finished = streamed.finish();
        assertThat(finished.data()).isNull();
        assertThat(finished.entry()).isEqualTo(inMemory.entry());
        assertThat(store.read(PartFile.name(2, 0))).isEqualTo(inMemory.data());
    }

    @Test
    void aFileIsCheckedForSizeHashGzipLinesAndRows() {
        PartFile.Finished f = file("part-00000-00000.jsonl.gz", List.of(row("a", "1"), row("a", "2")));
        List<Row> read = new ArrayList<>();
        DataFileReader.check(f.entry(), f.data(), read::add);
        assertThat(read).containsExactly(row("a", "1"), row("a", "2"));

        byte[] truncated = java.util.Arrays.copyOf(f.data(), f.data().length - 5);
        assertThatThrownBy(() -> DataFileReader.check(f.entry(), truncated, r -> {}))
                .hasMessageContaining("it has " + truncated.length + " bytes").hasMessageContaining("truncated");
        var wrongRows = new Manifest.DataFile(f.entry().name(), 3, f.entry().bytes(), f.entry().sha256());
        assertThatThrownBy(() -> DataFileReader.check(wrongRows, f.data(), r -> {}))
                .hasMessageContaining("it holds 2 rows, the manifest says 3");
        byte[] altered = f.data().clone();
        altered[altered.length / 2] ^= 1;
        assertThatThrownBy(() -> DataFileReader.check(f.entry(), altered, r -> {}))
                .hasMessageContaining("SHA-256");
    }

    @Test
    void aFileNameCarriesItsRunAndItsPartitionReadsWithOrWithoutOne() {
        assertThat(PartFile.name(3, 7, "0a1b2c3d")).isEqualTo("part-00003-00007-0a1b2c3d.jsonl.gz");
        assertThat(PartFile.partitionOf("part-00003-00007-0a1b2c3d.jsonl.gz")).isEqualTo(3);
        assertThat(PartFile.partitionOf("part-00012-00000.jsonl.gz")).as("an export of the previous version").isEqualTo(12);
        assertThat(PartFile.partitionOf("other.jsonl.gz")).isEqualTo(-1);
    }

    @Test
    void aFolderCreatesAFileOnceAndAClaimIsTakenOnce(@TempDir Path folder) throws Exception {
        FolderStore store = new FolderStore(folder);
        assertThat(store.create("m.json", new byte[] {1})).isTrue();
        assertThat(store.create("m.json", new byte[] {2})).isFalse();
        assertThat(store.read("m.json")).containsExactly(1);
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(folder)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("m.json"); // no temporary left
        }
        try (ExportClaim claim = ExportClaim.take(store)) {
            assertThat(claim.runId()).matches("[0-9a-f]{8}");
            assertThatThrownBy(() -> ExportClaim.take(store)).isInstanceOf(BackupException.class)
                    .hasMessageContaining("is being written by another export (pid " + ProcessHandle.current().pid())
                    .hasMessageContaining("delete " + folder.resolve(ExportClaim.NAME));
        }
        assertThat(store.exists(ExportClaim.NAME)).as("released").isFalse();
        store.write(Manifest.NAME, new byte[] {1});
        assertThatThrownBy(() -> ExportClaim.take(store)).hasMessageContaining("already holds a finished export");
        assertThat(store.exists(ExportClaim.NAME)).isFalse();
    }

    @Test
    void aManifestRoundTripsAndItsTotalsAreChecked() {
        var files = List.of(new Manifest.DataFile("part-00000-00000.jsonl.gz", 2, 10, "0".repeat(64)));
        Manifest m = new Manifest(1, "prod", "T", "scan-1", "2026-11-25T00:00:00Z", "2026-11-25T00:01:00Z", null, null,
                null, null, 2, files, null, null);
        assertThat(Manifest.parse(m.toJson())).isEqualTo(m);
        assertThat(m.partitionCount()).isEqualTo(1); // an older manifest: inferred from the highest part-<p>
        Manifest counted = new Manifest(1, "prod", "T", "scan-1", null, null, null, null, null, null, 2, files, 4, null);
        assertThat(Manifest.parse(counted.toJson()).partitionCount()).isEqualTo(4);
        assertThat(new String(m.toJson(), StandardCharsets.UTF_8)).doesNotContain("\"filter\"");
        Manifest wrong = new Manifest(1, "prod", "T", "scan-1", null, null, null, null, null, null, 3, files, null, null);
        assertThatThrownBy(() -> Manifest.parse(wrong.toJson())).hasMessageContaining("totalRows says 3");
        var escape = List.of(new Manifest.DataFile("../x.jsonl.gz", 0, 0, "0".repeat(64)));
        assertThatThrownBy(() -> Manifest.parse(new Manifest(1, "a", "T", "s", null, null, null, null, null, null, 0,
                escape, null, null).toJson())).hasMessageContaining("not a plain");
        assertThatThrownBy(() -> Manifest.parse("{".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("manifest.json is not valid");
    }

    @Test
    void anImportCutsBatchesOfOnePartitionAtMostAHundredRowsEachRowOnce(@TempDir Path folder) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            rows.add(row(i % 2 == 0 ? "even" : "odd", String.format("%05d", i)));
        }
        rows.add(1, row("even", "00000")); // the same row again: never twice in one batch (the service refuses it)
        List<List<Row>> batches = new ArrayList<>();
        FileBatches batcher = new FileBatches(batches::add);
        rows.forEach(batcher::add);
        batcher.finish();
        assertThat(batches).allMatch(b -> b.size() <= 100 && b.stream().map(Row::partitionKey).distinct().count() == 1
                && b.stream().map(Row::rowKey).distinct().count() == b.size());
        assertThat(batches.stream().mapToInt(List::size).sum()).isEqualTo(251);
        assertThat(batches).hasSize(5); // the first row alone (its repeat opens a batch), then 100 + 25 a side

        FolderStore store = new FolderStore(folder);
        store.prepare();
        PartFile.Finished f = file("part-00000-00000.jsonl.gz", rows);
        store.write(f.entry().name(), f.data());
        store.write(Manifest.NAME, new Manifest(1, "a", "T", "s", null, null, null, null, null, null, 251,
                List.of(f.entry()), null, null).toJson());
        Importer importer = new Importer(store, 2);
        assertThat(importer.checkAll(importer.manifest())).isEqualTo(5);
        assertThat(importer.rowsChecked()).isEqualTo(251);
    }
}
