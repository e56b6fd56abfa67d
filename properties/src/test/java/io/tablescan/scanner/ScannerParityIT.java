package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.local.AzuriteServer;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import io.tablescan.testkit.OddCharacters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The in-memory table service stands in for Azure in the property tests; here the same generated tables go
 * through Azurite and the real Azure adapter, and the scans must read the same rows with the same requests.
 */
class ScannerParityIT {
    static AzuriteServer azurite;
    static AzureTableStore azure;

    @BeforeAll
    static void start() {
        azurite = AzuriteServer.start();
        azure = AzureTableStore.fromConnectionString(azurite.connectionString());
    }

    @AfterAll
    static void stop() {
        azurite.close();
    }

    static String key(Random random) {
        StringBuilder key = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
            key.append(OddCharacters.UNITS[random.nextInt(OddCharacters.UNITS.length)]);
        }
        return key.toString();
    }

    @Test
    void generatedTablesScanAlikeOnAzuriteAndInMemory() {
        Random random = new Random(20261122);
        for (int table = 0; table < 25; table++) {
            String name = "parity" + table;
            Map<String, List<Row>> partitions = new TreeMap<>();
            String shared = random.nextInt(4) == 0 ? "s".repeat(200) : "";
            for (int p = 1 + random.nextInt(25); p > 0; p--) {
                String pk = shared + key(random);
                int rows = random.nextInt(5) == 0 ? 50 + random.nextInt(300) : 1 + random.nextInt(5);
                for (int r = 0; r < rows; r++) {
                    String rk = key(random) + r;
                    partitions.computeIfAbsent(pk, k -> new ArrayList<>()).removeIf(x -> x.rowKey().equals(rk));
                    partitions.get(pk).add(new Row(pk, rk, List.of()));
                }
            }
            InMemoryTableStore memory = new InMemoryTableStore();
            for (TableStore store : List.of(memory, azure)) {
                store.createTableIfNotExists(name);
                for (List<Row> rows : partitions.values()) {
                    for (int from = 0; from < rows.size(); from += 100) {
                        store.upsert(name, rows.get(0).partitionKey(), rows.subList(from, Math.min(rows.size(), from + 100)));
                    }
                }
            }
            int pageSize = 1 + random.nextInt(random.nextBoolean() ? 5 : 200);
            int budget = 1 + random.nextInt(4);
            for (Strategy strategy : Strategy.values()) {
                var inMemory = LocalScan.run(memory, name, KeyRange.ALL, strategy, pageSize, budget, null);
                var onAzurite = LocalScan.run(azure, name, KeyRange.ALL, strategy, pageSize, budget, null);
                assertThat(sorted(onAzurite.rows())).as(name + " " + strategy).isEqualTo(sorted(memory.rows(name)));
                assertThat(sorted(inMemory.rows())).isEqualTo(sorted(memory.rows(name)));
                assertThat(onAzurite.requests()).as(name + " " + strategy + " requests").isEqualTo(inMemory.requests());
                assertThat(onAzurite.items()).isEqualTo(inMemory.items());
            }
        }
    }

    static List<String> sorted(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparing(Row::partitionKey).thenComparing(Row::rowKey))
                .map(r -> r.partitionKey() + "\u0000" + r.rowKey()).toList();
    }
}
