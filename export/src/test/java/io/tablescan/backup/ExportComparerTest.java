package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.azure.RowJson;
import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportComparerTest {
    private static Row row(String pk, String rk, long n, String note) {
        return new Row(pk, rk, List.of(new RowProperty("N", EdmType.INT64, n), new RowProperty("Note", EdmType.STRING,
                note)));
    }

    /** Writes the rows as an export of a topic of {@code partitions}, each PartitionKey in Kafka's partition. */
    private static Manifest export(FolderStore store, List<Row> rows, int partitions, Integer recorded) {
        store.prepare();
        Map<Integer, List<Row>> byPartition = new HashMap<>();
        rows.forEach(r -> byPartition.computeIfAbsent(ExportComparer.partitionOf(r, partitions), k -> new ArrayList<>())
                .add(r));
        List<Manifest.DataFile> files = new ArrayList<>();
        byPartition.forEach((p, part) -> {
            PartFile file = new PartFile(PartFile.name(p, 0));
            part.forEach(r -> file.add(RowJson.toJson(r)));
            PartFile.Finished f = file.finish();
            store.write(f.entry().name(), f.data());
            files.add(f.entry());
        });
        return new Manifest(1, "a", "T", "s", null, null, null, null, null, null, rows.size(), files, recorded, null);
    }

    private static ExportComparer.PartitionReader source(List<Row> rows, int partitions) {
        return (p, each) -> rows.stream().filter(r -> ExportComparer.partitionOf(r, partitions) == p)
                .forEach(r -> each.accept(RowJson.toJson(r)));
    }

    @Test
    void rowsGoToTheKafkaPartitionOfTheirPartitionKey() {
        Row row = row("some partition", "r", 1, "x");
        for (int partitions : new int[] {1, 6, 12, 24}) {
            assertThat(ExportComparer.partitionOf(row, partitions))
                    .isEqualTo(BuiltInPartitioner.partitionForKey(RowJson.partitionKeyJson(row), partitions));
        }
    }

    @Test
    void eachKindIsFoundOncePerPartition(@TempDir Path folder) {
        List<Row> exported = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            exported.add(row("p" + i % 17, "r" + i, i, "n" + i));
        }
        FolderStore store = new FolderStore(folder);
        Manifest manifest = export(store, exported, 6, 6);
        List<Row> now = new ArrayList<>(exported);
        now.set(7, new Row("p7", "r7", List.of(new RowProperty("Note", EdmType.STRING, "n7"),
                new RowProperty("N", EdmType.INT64, 7L)))); // the same properties in another order: equal
        now.set(9, row("p9", "r9", 9, "changed"));
        now.remove(5); // extra in the export
        now.add(row("p3", "new", 1, "x")); // missing from the export
        List<Difference> found = new ArrayList<>();
        ExportComparer.Counts counts = new ExportComparer(store, manifest).compare(source(now, 6), "scan", found::add);
        assertThat(counts).isEqualTo(new ExportComparer.Counts(200, 200, 1, 1, 1));
        assertThat(found).extracting(Difference::getKind).containsExactlyInAnyOrder(DifferenceKind.MISSING,
                DifferenceKind.DIFFERENT, DifferenceKind.EXTRA);
        Difference different = found.stream().filter(d -> d.getKind() == DifferenceKind.DIFFERENT).findFirst()
                .orElseThrow();
        assertThat(different.getRowKey()).isEqualTo("r9");
        assertThat(different.getProperties()).hasSize(1);
        assertThat(different.getProperties().getFirst().getName()).isEqualTo("Note");
    }

    @Test
    void anOlderManifestsCountIsInferredAndCheckedRowByRow(@TempDir Path folder) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(row("k" + i, "r", i, "n"));
        }
        FolderStore store = new FolderStore(folder.resolve("good"));
        Manifest old = export(store, rows, 6, null); // 300 keys: every one of the 6 partitions has a file
        assertThat(old.partitionCount()).isEqualTo(6);
        assertThat(new ExportComparer(store, old).compare(source(rows, 6), "s", d -> {}).differences()).isZero();

        // Made with 12 partitions, its files of partitions 7 to 11 gone: the name-inferred count (7) is wrong, and
        // rows are found in files of partitions their keys are not of under it.
        FolderStore wrong = new FolderStore(folder.resolve("wrong"));
        List<Manifest.DataFile> kept = export(wrong, rows.subList(0, 60), 12, null).files().stream()
                .filter(f -> PartFile.partitionOf(f.name()) <= 6).toList();
        Manifest partial = new Manifest(1, "a", "T", "s", null, null, null, null, null, null,
                kept.stream().mapToLong(Manifest.DataFile::rows).sum(), kept, null, null);
        assertThat(partial.partitionCount()).isEqualTo(7);
        assertThatThrownBy(() -> new ExportComparer(wrong, partial).compare(source(rows, 7), "s", d -> {}))
                .isInstanceOf(BackupException.class).hasMessageContaining("predates topicPartitions");
    }
}
