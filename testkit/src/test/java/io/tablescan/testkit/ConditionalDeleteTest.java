package io.tablescan.testkit;

import static io.tablescan.table.TableDeletes.Outcome.CHANGED;
import static io.tablescan.table.TableDeletes.Outcome.DELETED;
import static io.tablescan.table.TableDeletes.Outcome.GONE;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.table.TableDeletes;
import io.tablescan.spi.TableStore;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The in-memory service's conditional batch deletes answer as the service does: 404 and 412 name the row. */
class ConditionalDeleteTest {
    private final InMemoryTableStore store = new InMemoryTableStore();

    private List<Row> fill(int n) {
        store.createTableIfNotExists("t");
        List<Row> rows = IntStream.range(0, n).mapToObj(i -> new Row("p", String.format("r%03d", i),
                List.of(new RowProperty("V", EdmType.INT32, i)))).toList();
        for (int i = 0; i < n; i += 100) {
            store.upsert("t", "p", rows.subList(i, Math.min(n, i + 100)));
        }
        return store.query("t", KeyRange.ALL, new QueryOptions(1000, null, null), null).rows();
    }

    private static List<TableStore.Version> versions(List<Row> rows) {
        return rows.stream().map(r -> new TableStore.Version(r.rowKey(), r.etag())).toList();
    }

    @Test
    void aRowChangedSinceReadIsKeptAndOneGoneIsNoFailure() {
        List<Row> read = fill(5);
        assertThat(read).allMatch(r -> r.etag() != null);
        store.upsert("t", "p", List.of(new Row("p", "r001", List.of(new RowProperty("V", EdmType.INT32, 99)))));
        assertThat(store.delete("t", "p", "r003")).isTrue();

        TableDeletes.Result result = TableDeletes.ifUnchanged(store, "t", "p", versions(read));

        assertThat(result.outcomes()).containsExactly(DELETED, CHANGED, DELETED, GONE, DELETED);
        // refused for r001, then for r003 (gone: the rows left are read), then the rest deleted
        assertThat(result.requests()).isEqualTo(4);
        assertThat(store.rows("t")).extracting(Row::rowKey).containsExactly("r001");
        assertThat(store.rows("t").getFirst().properties().getFirst().value()).isEqualTo(99);
    }

    /** A replayed batch, deleted by its first attempt: one refusal and one read, not a transaction a row. */
    @Test
    void aReplayFindsItsRowsGoneInTwoRequests() {
        List<Row> read = fill(100);
        TableDeletes.ifUnchanged(store, "t", "p", versions(read));

        TableDeletes.Result replay = TableDeletes.ifUnchanged(store, "t", "p", versions(read));

        assertThat(replay.outcomes()).hasSize(100).containsOnly(GONE);
        assertThat(replay.requests()).isEqualTo(2);
    }

    @Test
    void aRefusedBatchDeletesNothing() {
        List<Row> read = fill(3);
        store.upsert("t", "p", List.of(new Row("p", "r002", List.of())));

        TableStore.Refusal refusal = store.deleteIfUnchanged("t", "p", versions(read));

        assertThat(refusal).isEqualTo(new TableStore.Refusal(2, false));
        assertThat(store.rows("t")).hasSize(3);
    }

    @Test
    void moreThanAHundredGoInTransactionsOfAHundredAndNoETagDeletesWhateverIsThere() {
        List<Row> read = fill(150);
        store.upsert("t", "p", List.of(new Row("p", "r120", List.of())));
        List<TableStore.Version> versions = read.stream().map(r -> new TableStore.Version(r.rowKey(), null)).toList();

        TableDeletes.Result result = TableDeletes.ifUnchanged(store, "t", "p", versions);

        assertThat(result.outcomes()).hasSize(150).containsOnly(DELETED);
        assertThat(result.requests()).isEqualTo(2);
        assertThat(store.rows("t")).isEmpty();
    }
}
