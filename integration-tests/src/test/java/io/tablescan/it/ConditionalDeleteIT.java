package io.tablescan.it;

import static io.tablescan.table.TableDeletes.Outcome.CHANGED;
import static io.tablescan.table.TableDeletes.Outcome.DELETED;
import static io.tablescan.table.TableDeletes.Outcome.GONE;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClientBuilder;
import io.tablescan.azure.AzureTableStore;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.table.TableDeletes;
import io.tablescan.spi.TableStore;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conditional batch deletes against Azurite, by the REST store tablescan runs and the SDK store: a row changed
 * since read (by the JavaScript SDK) is kept, one gone is no failure, and the rest are deleted in transactions of
 * up to 100 of a partition.
 */
class ConditionalDeleteIT {
    private static TableStore store(String kind) {
        String cs = LocalServices.azurite().connectionString();
        return kind.equals("rest") ? AzureTableStore.fromConnectionString(cs)
                : AzureTableStore.build(new TableServiceClientBuilder().connectionString(cs));
    }

    private static List<Row> fill(TableStore store, String table, int n) {
        store.createTableIfNotExists(table);
        List<Row> rows = IntStream.range(0, n).mapToObj(i -> new Row("p", String.format("r%03d", i),
                List.of(new RowProperty("V", EdmType.INT32, i)))).toList();
        for (int i = 0; i < n; i += 100) {
            store.upsert(table, "p", rows.subList(i, Math.min(n, i + 100)));
        }
        return store.query(table, KeyRange.ALL, new QueryOptions(1000, null, null), null).rows();
    }

    private static List<TableStore.Version> versions(List<Row> rows) {
        return rows.stream().map(r -> new TableStore.Version(r.rowKey(), r.etag())).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest", "sdk"})
    void aRowChangedSinceReadIsKeptAndOneGoneIsNoFailure(String kind) throws Exception {
        TableStore store = store(kind);
        String table = "conddel" + kind;
        List<Row> read = fill(store, table, 5);
        assertThat(read).allMatch(r -> r.etag() != null && r.etag().startsWith("W/"));
        FidelityIT.client("put", table, "{\"partitionKey\":\"p\",\"rowKey\":\"r001\",\"V\":99}");
        assertThat(store.delete(table, "p", "r003")).isTrue();

        TableDeletes.Result result = TableDeletes.ifUnchanged(store, table, "p", versions(read));

        assertThat(result.outcomes()).containsExactly(DELETED, CHANGED, DELETED, GONE, DELETED);
        assertThat(result.requests()).isEqualTo(4); // refused twice; the rows left read after the one gone
        assertThat(TableDeletes.ifUnchanged(store, table, "p", versions(read.subList(2, 5))).outcomes())
                .as("a replay").containsOnly(GONE);
        assertThat(FidelityIT.client("dump", table).lines().toList()).singleElement().asString()
                .contains("\"rk\":\"r001\"").contains("99");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest", "sdk"})
    void aRefusedBatchDeletesNothingAndNamesItsRow(String kind) throws Exception {
        TableStore store = store(kind);
        String table = "condref" + kind;
        List<Row> read = fill(store, table, 60);
        FidelityIT.client("put", table, "{\"partitionKey\":\"p\",\"rowKey\":\"r042\",\"V\":7}");

        assertThat(store.deleteIfUnchanged(table, "p", versions(read))).isEqualTo(new TableStore.Refusal(42, false));
        assertThat(FidelityIT.client("dump", table).lines().count()).isEqualTo(60);
        store.delete(table, "p", "r042");
        assertThat(store.deleteIfUnchanged(table, "p", versions(read))).isEqualTo(new TableStore.Refusal(42, true));
        assertThat(FidelityIT.client("dump", table).lines().count()).isEqualTo(59);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest", "sdk"})
    void moreThanAHundredGoInTransactionsOfAHundred(String kind) throws Exception {
        TableStore store = store(kind);
        String table = "condmany" + kind;
        List<Row> read = fill(store, table, 150);

        TableDeletes.Result result = TableDeletes.ifUnchanged(store, table, "p", versions(read));

        assertThat(result.outcomes()).hasSize(150).containsOnly(DELETED);
        assertThat(result.requests()).isEqualTo(2);
        assertThat(FidelityIT.client("dump", table)).isEmpty();
    }
}
