package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RowJson;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An incremental table's changes from its keys export: only the rows at or after "since" are read again (by their
 * keys), and they are written as an export that any reader of exports takes, each row in its topic partition's file.
 */
class ChangedRowsTest {
    private static final int PARTITIONS = 6;
    private static final long SINCE = 5_000;

    @TempDir
    Path folder;

    @Test
    void onlyTheChangedRowsAreReadAgainAndWrittenAsAnExportOfTheirPartitions() {
        Map<String, Row> table = new HashMap<>();
        List<Row> keyRows = new ArrayList<>();
        for (int p = 0; p < 40; p++) {
            for (int r = 0; r < 5; r++) {
                long timestamp = (p * 5 + r) % 10 == 0 ? SINCE + p : SINCE - 1 - p; // 1 row in 10 changed
                Row row = new Row("pk" + p, "rk" + r, List.of(new RowProperty("Value", EdmType.INT64, (long) p * r)),
                        timestamp);
                table.put(row.partitionKey() + "/" + row.rowKey(), row);
                keyRows.add(new Row(row.partitionKey(), row.rowKey(), List.of(), timestamp));
            }
        }
        FolderStore keys = new FolderStore(folder.resolve("T.keys"));
        Manifest keysManifest = export(keys, keyRows);
        table.remove("pk10/rk0"); // changed, then deleted before its point read: left out
        AtomicInteger reads = new AtomicInteger();

        Map<Integer, List<ChangedRows.Key>> changed = ChangedRows.find(keys, keysManifest, SINCE, 20);
        FolderStore target = new FolderStore(folder.resolve("T"));
        Manifest manifest = ChangedRows.export(store(table, reads), "T", changed, keysManifest, "the filter", 0,
                () -> false, target, "run1", "account");

        assertThat(changed.values().stream().mapToInt(List::size).sum()).isEqualTo(20);
        assertThat(ChangedRows.find(keys, keysManifest, SINCE, 19)).as("more than the most to read by key").isNull();
        assertThat(reads).hasValue(20);
        assertThat(manifest.totalRows()).isEqualTo(19);
        assertThat(manifest.scanId()).isEqualTo(keysManifest.scanId());
        assertThat(manifest.topicPartitions()).isEqualTo(PARTITIONS);
        assertThat(manifest.filter()).isEqualTo("the filter");
        List<Row> read = new ArrayList<>();
        new Importer(target, 2).checkAll(Manifest.parse(target.read(Manifest.NAME)), row -> {
            synchronized (read) {
                read.add(row);
            }
        });
        assertThat(read).containsExactlyInAnyOrderElementsOf(table.values().stream()
                .filter(row -> row.timestamp() >= SINCE).toList());
        for (Manifest.DataFile file : manifest.files()) {
            DataFileReader.check(file, DataFileReader.read(target, file), row -> assertThat(
                    ExportComparer.partitionOf(row, PARTITIONS)).isEqualTo(PartFile.partitionOf(file.name())));
        }
    }

    /** The rows as an export of {@value #PARTITIONS} topic partitions, as a keys scan writes it. */
    private static Manifest export(FolderStore store, List<Row> rows) {
        store.prepare();
        Map<Integer, PartFile> files = new HashMap<>();
        for (Row row : rows) {
            int p = ExportComparer.partitionOf(row, PARTITIONS);
            files.computeIfAbsent(p, k -> new PartFile(PartFile.name(k, 0, "keys"), store)).add(RowJson.toJson(row));
        }
        List<Manifest.DataFile> entries = files.values().stream().map(file -> file.finish().entry()).toList();
        Manifest manifest = new Manifest(Manifest.FORMAT_VERSION, "account", "T", "scan-1", "2026-11-27T00:00:00Z",
                "2026-11-27T00:01:00Z", null, List.of("RowKey", "Timestamp"), null, null, rows.size(), entries,
                PARTITIONS, null);
        store.create(Manifest.NAME, manifest.toJson());
        return manifest;
    }

    /** A table that answers point reads only, counting them. */
    private static TableStore store(Map<String, Row> table, AtomicInteger reads) {
        return new TableStore() {
            @Override
            public Row read(String name, String partitionKey, String rowKey) {
                reads.incrementAndGet();
                return table.get(partitionKey + "/" + rowKey);
            }

            @Override
            public Page query(String name, ScanQuery query, QueryOptions options, Continuation from) {
                throw new AssertionError("no scan");
            }

            @Override
            public void upsert(String name, String partitionKey, List<Row> rows) {
                throw new AssertionError("no write");
            }

            @Override
            public void createTableIfNotExists(String name) {
                throw new AssertionError("no write");
            }

            @Override
            public boolean tableExists(String name) {
                return true;
            }
        };
    }
}
