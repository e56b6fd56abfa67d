package io.tablescan.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.spi.Bound;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStoreException;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AzureTableStoreIT {
    static AzuriteServer azurite;
    static AzureTableStore store;

    @BeforeAll
    static void start() {
        azurite = AzuriteServer.start();
        store = AzureTableStore.fromConnectionString(azurite.connectionString());
    }

    @AfterAll
    static void stop() {
        azurite.close();
    }

    static List<RowProperty> everyType() {
        return List.of(
                new RowProperty("s", EdmType.STRING, "text 'quoted' \u00e9\uD83D\uDE00"),
                new RowProperty("i32", EdmType.INT32, Integer.MIN_VALUE),
                new RowProperty("i64", EdmType.INT64, Long.MAX_VALUE),
                new RowProperty("whole", EdmType.DOUBLE, 2.0),
                new RowProperty("nan", EdmType.DOUBLE, Double.NaN),
                new RowProperty("pinf", EdmType.DOUBLE, Double.POSITIVE_INFINITY),
                new RowProperty("ninf", EdmType.DOUBLE, Double.NEGATIVE_INFINITY),
                new RowProperty("frac", EdmType.DOUBLE, 0.1),
                new RowProperty("bool", EdmType.BOOLEAN, true),
                new RowProperty("when", EdmType.DATETIME, 17_000_000_001_234_567L),
                new RowProperty("guid", EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
                new RowProperty("bin", EdmType.BINARY, new byte[] {0, 1, 2, (byte) 0xFF}));
    }

    @Test
    void everyEdmTypeSurvivesAWriteAndARead() {
        store.createTableIfNotExists("types");
        store.upsert("types", "p", List.of(new Row("p", "r", everyType())));

        Page page = store.query("types", KeyRange.ALL, new QueryOptions(10, null, null), null);

        assertThat(page.rows()).hasSize(1);
        assertThat(page.rows().get(0).properties()).containsExactlyInAnyOrderElementsOf(everyType());
    }

    @Test
    void oddKeysAreFilteredAndPagedExactly() {
        store.createTableIfNotExists("odd");
        String[] keys = {"", "'", "''", "%", "~", "a'b", "\uFFFE", "a\uFFFF", "a\uFFFFb", "\uD800\uDC00", "\uDBFF\uDFFF",
            "\uE000", "A", "z", "a b", "+&="};
        List<Row> expected = new ArrayList<>();
        for (String pk : keys) {
            List<Row> batch = new ArrayList<>();
            for (String rk : keys) {
                batch.add(new Row(pk, rk, List.of(new RowProperty("v", EdmType.STRING, pk + "/" + rk))));
            }
            store.upsert("odd", pk, batch);
            expected.addAll(batch);
        }
        for (Strategy strategy : Strategy.values()) {
            LocalScan.Result result = LocalScan.run(store, "odd", KeyRange.ALL, strategy, 3, 2, null);
            assertThat(result.rows()).containsExactlyInAnyOrderElementsOf(expected);
        }
        Page quote = store.query("odd", new PartitionRange("'", Bound.after("''")), new QueryOptions(100, null, null), null);
        assertThat(quote.rows()).extracting(Row::rowKey).allMatch(rk -> rk.compareTo("''") > 0).isNotEmpty();
    }

    @Test
    void continuationsDecodeToTheNextKeys() {
        store.createTableIfNotExists("paging");
        for (int p = 0; p < 3; p++) {
            List<Row> batch = new ArrayList<>();
            for (int r = 0; r < 5; r++) {
                batch.add(new Row("p" + p, "r" + r, List.of()));
            }
            store.upsert("paging", "p" + p, batch);
        }
        Page first = store.query("paging", KeyRange.ALL, new QueryOptions(7, null, null), null);

        assertThat(first.next().nextPartitionKey()).isEqualTo("p1");
        assertThat(first.next().nextRowKey()).isEqualTo("r2");
        Page second = store.query("paging", KeyRange.ALL, new QueryOptions(7, null, null), first.next());
        assertThat(second.rows().get(0).rowKey()).isEqualTo("r2");
    }

    @Test
    void failuresAreClassifiedWithoutSecrets() {
        assertThatThrownBy(() -> store.query("missing", KeyRange.ALL, new QueryOptions(1, null, null), null))
                .isInstanceOfSatisfying(TableStoreException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.isTransient()).isFalse();
                    assertThat(e.getMessage()).doesNotContain("AccountKey").doesNotContain("Eby8");
                });
        assertThat(store.tableExists("missing")).isFalse();
        assertThatThrownBy(() -> store.upsert("types", "p", List.of(new Row("q", "r", List.of()))))
                .isInstanceOf(TableStoreException.class).hasMessageContaining("one partition");
        assertThatThrownBy(() -> AzureTableStore.fromConnectionString("garbage with secret!"))
                .isInstanceOf(IllegalArgumentException.class).message().doesNotContain("secret!");
    }

    @Test
    void aWrongAccountKeyIsAPermanent403() {
        String wrongKey = azurite.connectionString()
                .replaceAll("AccountKey=[^;]+", "AccountKey=" + java.util.Base64.getEncoder().encodeToString(new byte[64]));
        AzureTableStore denied = AzureTableStore.fromConnectionString(wrongKey);
        store.createTableIfNotExists("denied");

        assertThatThrownBy(() -> denied.upsert("denied", "p", List.of(new Row("p", "r", List.of()))))
                .isInstanceOfSatisfying(TableStoreException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.isTransient()).isFalse();
                    assertThat(e.getMessage()).doesNotContain("AccountKey").doesNotContain("AAAAAAAA");
                });
        assertThatThrownBy(() -> denied.query("denied", KeyRange.ALL, new QueryOptions(1, null, null), null))
                .isInstanceOfSatisfying(TableStoreException.class, e -> assertThat(e.status()).isEqualTo(403));
    }
}
