package io.tablescan.it;

import static io.tablescan.table.TableWrites.Outcome.REFUSED;
import static io.tablescan.table.TableWrites.Outcome.WRITTEN;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClientBuilder;
import io.tablescan.azure.AzureTableStore;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableWrites;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Merges, inserts and writes conditional on an ETag against Azurite, by the REST store tablescan runs and the SDK
 * store, values read back by the JavaScript SDK: a merge keeps the properties the row lacks; an insert is refused by
 * a row that exists, a replacement by a row changed (by the JavaScript SDK) or deleted since read, the refusal naming
 * it and writing nothing; and the rest are written, a replay finding its rows written.
 */
class ConditionalWriteIT {
    private static final BiPredicate<Row, Row> SAME = (a, b) -> ChangingSourceIT.normalized(a).equals(
            ChangingSourceIT.normalized(new Row(a.partitionKey(), a.rowKey(), b.properties())));

    private static TableStore store(String kind) {
        String cs = LocalServices.azurite().connectionString();
        return kind.equals("rest") ? AzureTableStore.fromConnectionString(cs)
                : AzureTableStore.build(new TableServiceClientBuilder().connectionString(cs));
    }

    private static List<Row> rows(int n, String value) {
        return IntStream.range(0, n).mapToObj(i -> new Row("p", String.format("r%03d", i),
                List.of(new RowProperty("V", EdmType.STRING, value + i)))).toList();
    }

    private static List<Row> read(TableStore store, String table) {
        return store.query(table, KeyRange.ALL, new QueryOptions(1000, null, null), null).rows();
    }

    private static List<String> dump(String table) throws Exception {
        return FidelityIT.client("dump", table).lines().toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest", "sdk"})
    void aMergeKeepsThePropertiesTheRowLacks(String kind) throws Exception {
        TableStore store = store(kind);
        String table = "condmerge" + kind;
        store.createTableIfNotExists(table);
        FidelityIT.client("put", table, "{\"partitionKey\":\"p\",\"rowKey\":\"r001\",\"V\":\"old\",\"Keep\":\"kept\"}");

        store.merge(table, "p", rows(3, "new"));

        assertThat(dump(table)).hasSize(3);
        assertThat(dump(table).get(1)).contains("\"V\":[null,\"new1\"]").contains("\"Keep\":[null,\"kept\"]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest", "sdk"})
    void anInsertIsRefusedByARowThatExistsAndWritesNothing(String kind) throws Exception {
        TableStore store = store(kind);
        String table = "condins" + kind;
        store.createTableIfNotExists(table);
        FidelityIT.client("put", table, "{\"partitionKey\":\"p\",\"rowKey\":\"r042\",\"V\":\"theirs\"}");
        List<Row> rows = rows(60, "v");
        List<String> inserts = Arrays.asList(new String[60]);

        assertThat(store.writeIfUnchanged(table, "p", rows, inserts)).isEqualTo(new TableStore.Refusal(42, false));
        assertThat(dump(table)).hasSize(1);

        TableWrites.Result result = TableWrites.insert(store, table, "p", rows, SAME);
        assertThat(result.outcomes().get(42)).isEqualTo(REFUSED);
        assertThat(result.count(WRITTEN)).isEqualTo(59);
        assertThat(result.requests()).isEqualTo(3); // refused, read, the rest
        assertThat(TableWrites.insert(store, table, "p", rows, SAME).outcomes()).as("a replay finds its rows")
                .containsExactlyElementsOf(result.outcomes());
        assertThat(dump(table)).hasSize(60).filteredOn(l -> l.contains("\"rk\":\"r042\"")).singleElement()
                .asString().contains("theirs");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest", "sdk"})
    void aReplacementIsRefusedByARowChangedOrGoneSinceRead(String kind) throws Exception {
        TableStore store = store(kind);
        String table = "condrepl" + kind;
        store.createTableIfNotExists(table);
        store.upsert(table, "p", rows(5, "old"));
        List<Row> held = read(store, table);
        FidelityIT.client("put", table, "{\"partitionKey\":\"p\",\"rowKey\":\"r001\",\"V\":\"theirs\"}");
        store.delete(table, "p", "r003");
        List<String> etags = new ArrayList<>(held.stream().map(Row::etag).toList());
        List<Row> rows = new ArrayList<>(rows(5, "new"));
        rows.add(new Row("p", "r009", List.of(new RowProperty("V", EdmType.STRING, "new9")))); // missing: an insert
        etags.add(null);

        assertThat(store.writeIfUnchanged(table, "p", rows, etags)).isEqualTo(new TableStore.Refusal(1, false));
        assertThat(store.writeIfUnchanged(table, "p", rows.subList(2, 6), etags.subList(2, 6)))
                .isEqualTo(new TableStore.Refusal(1, true));
        TableWrites.Result result = TableWrites.ifUnchanged(store, table, "p", rows, etags, SAME);

        assertThat(result.outcomes()).containsExactly(WRITTEN, REFUSED, WRITTEN, REFUSED, WRITTEN, WRITTEN);
        assertThat(TableWrites.ifUnchanged(store, table, "p", rows, etags, SAME).outcomes()).as("a replay")
                .containsExactlyElementsOf(result.outcomes());
        List<String> dump = dump(table);
        assertThat(dump).hasSize(5).noneMatch(l -> l.contains("\"rk\":\"r003\""));
        assertThat(dump.get(1)).contains("theirs");
        assertThat(dump.get(0)).contains("new0");
        assertThat(dump.get(4)).contains("\"rk\":\"r009\"").contains("new9");
    }
}
