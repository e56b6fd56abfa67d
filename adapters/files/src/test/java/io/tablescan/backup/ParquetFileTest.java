package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RowJson;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parquet files written from rows read back as the same rows (the reader a Parquet import uses). */
class ParquetFileTest {
    @TempDir
    Path folder;

    @Test
    void everyTypeEdgeValuesAndTextsReadBackAsTheRowsWritten() {
        List<Row> rows = List.of(
                new Row("", "a", List.of(new RowProperty("When", EdmType.DATETIME, -116_444_736_000_000_000L),
                        new RowProperty("Big", EdmType.INT64, Long.MIN_VALUE),
                        new RowProperty("Price", EdmType.DOUBLE, -0.0)), 17_000_000_000_000_000L),
                new Row("p\uD83D\uDE00", "b'", List.of(new RowProperty("When", EdmType.DATETIME, 17_000_000_000_000_001L),
                        new RowProperty("Big", EdmType.INT64, 7L, "007"),
                        new RowProperty("Price", EdmType.STRING, "free"),
                        new RowProperty("Id", EdmType.GUID, "c9da6455-213d-42c9-9a79-3e9149a57833"),
                        new RowProperty("Bytes", EdmType.BINARY, new byte[] {0, (byte) 255}),
                        new RowProperty("Flag", EdmType.BOOLEAN, true),
                        new RowProperty("Small", EdmType.INT32, Integer.MIN_VALUE),
                        new RowProperty("Nan", EdmType.DOUBLE, Double.NaN)), null),
                new Row("q", "", List.of(new RowProperty("Id", EdmType.GUID, "C9DA6455-213D-42C9-9A79-3E9149A57833")),
                        1L));
        PropertyCatalog catalog = new PropertyCatalog();
        rows.forEach(catalog::add);
        TableSchema schema = TableSchema.of(catalog, "scan-1", FileFormat.PARQUET);
        assertThat(schema.columns()).extracting(TableSchema.Column::name).containsExactly("PartitionKey", "RowKey",
                "Timestamp", "Big", "Big@Text", "Bytes", "Flag", "Id", "Id@Text", "Nan", "Price@String",
                "Price@Double", "Small", "When", "When@Text");

        FolderStore store = new FolderStore(folder);
        PartFile file = new PartFile("part-00000-00000-r.parquet", store, FileFormat.PARQUET.writer(schema));
        rows.forEach(row -> file.add(RowJson.toJson(row)));
        Manifest.DataFile entry = file.finish().entry();
        List<Row> read = new ArrayList<>();
        DataFileReader.check(entry, store.read(entry.name()), read::add);
        assertThat(read).map(ParquetFileTest::byName).isEqualTo(rows.stream().map(ParquetFileTest::byName).toList());
        assertThat(read).extracting(Row::timestamp).containsExactly(17_000_000_000_000_000L, null, 1L);
    }

    @Test
    void theSameRowsGiveTheSameBytes() throws Exception {
        // a killed copy-worker's partition is written again by another: its index's SHA-256 must hold for both
        PropertyCatalog catalog = new PropertyCatalog();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            rows.add(new Row("p" + i % 7, "r" + i, List.of(new RowProperty("N", EdmType.INT64, (long) i),
                    new RowProperty("When", EdmType.DATETIME, 17_000_000_000_000_000L + i)), 1L + i));
        }
        rows.forEach(catalog::add);
        TableSchema schema = TableSchema.of(catalog, "scan-1", FileFormat.PARQUET);
        FolderStore store = new FolderStore(folder);
        List<String> digests = new ArrayList<>();
        for (String name : List.of("part-00000-00000-a.parquet", "part-00000-00000-b.parquet")) {
            PartFile file = new PartFile(name, store, FileFormat.PARQUET.writer(schema));
            rows.forEach(row -> file.add(RowJson.toJson(row)));
            digests.add(file.finish().entry().sha256());
        }
        assertThat(digests.get(0)).isEqualTo(digests.get(1));
    }

    @Test
    void aRowThatIsNotInTheColumnsFailsItsFileWhichLeavesNothingBehind() throws Exception {
        PropertyCatalog catalog = new PropertyCatalog();
        catalog.add(new Row("p", "r", List.of(new RowProperty("N", EdmType.INT32, 1))));
        TableSchema schema = TableSchema.of(catalog, "scan-1", FileFormat.PARQUET);
        FolderStore store = new FolderStore(folder);
        PartFile file = new PartFile("part-00000-00000-r.parquet", store, FileFormat.PARQUET.writer(schema));
        file.add(RowJson.toJson(new Row("p", "r", List.of(new RowProperty("N", EdmType.INT32, 1)))));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> file.add(RowJson.toJson(new Row("p", "s",
                List.of(new RowProperty("N", EdmType.STRING, "one")))))).isInstanceOf(BackupException.class)
                .hasMessageContaining("property N of type String is not in the export's columns");
        file.abort();
        try (var left = java.nio.file.Files.list(folder)) {
            assertThat(left.toList()).isEmpty(); // never a value dropped silently, and no temporary file left
        }
    }

    /** A row with its properties by name: the columns' order, not the row's, is a file's. */
    private static Row byName(Row row) {
        List<RowProperty> sorted = new ArrayList<>(row.properties());
        sorted.sort(java.util.Comparator.comparing(RowProperty::name));
        return new Row(row.partitionKey(), row.rowKey(), sorted, row.timestamp());
    }
}
