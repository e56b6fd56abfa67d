package io.tablescan.testkit;

import static io.tablescan.table.TableWrites.Outcome.REFUSED;
import static io.tablescan.table.TableWrites.Outcome.WRITTEN;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The in-memory service merges, and refuses inserts and ETag-conditional replacements as the service does (the
 * first refused row named, nothing written); {@link TableWrites} resubmits the rest in transactions of up to 100.
 */
class ConditionalWriteTest {
    private static final BiPredicate<Row, Row> SAME = (a, b) -> a.properties().equals(b.properties());
    private final InMemoryTableStore store = new InMemoryTableStore();

    private static List<Row> rows(int n, String value) {
        return IntStream.range(0, n).mapToObj(i -> new Row("p", String.format("r%03d", i),
                List.of(new RowProperty("V", EdmType.STRING, value + i)))).toList();
    }

    private List<Row> read() {
        return store.query("t", KeyRange.ALL, new QueryOptions(1000, null, null), null).rows();
    }

    @Test
    void aMergeKeepsThePropertiesTheRowLacks() {
        store.createTableIfNotExists("t");
        store.upsert("t", "p", List.of(new Row("p", "r001", List.of(new RowProperty("Keep", EdmType.INT32, 7)))));

        store.merge("t", "p", rows(2, "v"));

        assertThat(read()).hasSize(2);
        assertThat(read().get(1).properties()).extracting(RowProperty::name).containsExactly("Keep", "V");
    }

    @Test
    void insertsLeaveTheRowsThatExistAndAReplayFindsItsRowsWritten() {
        store.createTableIfNotExists("t");
        store.upsert("t", "p", List.of(new Row("p", "r042", List.of(new RowProperty("V", EdmType.STRING, "x")))));
        List<Row> rows = rows(150, "v");

        assertThat(store.writeIfUnchanged("t", "p", rows.subList(0, 100), java.util.Collections.nCopies(100, null)))
                .isEqualTo(new TableStore.Refusal(42, false));
        TableWrites.Result result = TableWrites.insert(store, "t", "p", rows, SAME);

        assertThat(result.count(REFUSED)).isEqualTo(1);
        assertThat(result.outcomes().get(42)).isEqualTo(REFUSED);
        assertThat(result.requests()).isEqualTo(4); // refused, read, the rest; the next 50
        assertThat(TableWrites.insert(store, "t", "p", rows, SAME).outcomes()).containsExactlyElementsOf(
                result.outcomes());
        assertThat(read()).hasSize(150).filteredOn(r -> r.rowKey().equals("r042")).singleElement()
                .extracting(r -> r.properties().getFirst().value()).isEqualTo("x");
    }

    @Test
    void aReplacementIsRefusedByARowChangedOrGoneSinceRead() {
        store.createTableIfNotExists("t");
        store.upsert("t", "p", rows(4, "old"));
        List<String> etags = new ArrayList<>(read().stream().map(Row::etag).toList());
        store.upsert("t", "p", List.of(new Row("p", "r001", List.of(new RowProperty("V", EdmType.STRING, "theirs")))));
        store.delete("t", "p", "r002");

        TableWrites.Result result = TableWrites.ifUnchanged(store, "t", "p", rows(4, "new"), etags, SAME);

        assertThat(result.outcomes()).containsExactly(WRITTEN, REFUSED, REFUSED, WRITTEN);
        assertThat(read()).extracting(r -> r.properties().getFirst().value()).containsExactly("new0", "theirs", "new3");
    }
}
