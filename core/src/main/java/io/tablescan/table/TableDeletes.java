package io.tablescan.table;

import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Conditional deletes of a partition's rows in transactions of up to 100, whatever refusals come back. */
public final class TableDeletes {
    /** How the delete of one row ended. */
    public enum Outcome {
        /** Deleted now. */
        DELETED,
        /** Gone before (a replay's delete, or another writer's): no failure. */
        GONE,
        /** Changed since it was read (its ETag no longer matches): kept. */
        CHANGED
    }

    /** What a partition's deletes came to, and the requests they took. */
    public record Result(List<Outcome> outcomes, int requests) {
        public long count(Outcome outcome) {
            return outcomes.stream().filter(o -> o == outcome).count();
        }
    }

    private TableDeletes() {}

    /**
     * Deletes these rows of one partition, each only if it still has its ETag: a transaction of up to 100; a refused
     * row (gone or changed) is dropped and the rest resubmitted. A row gone is most often a replay's, whose batch
     * the first attempt deleted: the rows still there are then read (keys only, one query) and the rest resubmitted,
     * rather than one transaction per row. The outcomes are in the rows' order.
     */
    public static Result ifUnchanged(TableStore store, String table, String partitionKey,
            List<TableStore.Version> rows) {
        Outcome[] outcomes = new Outcome[rows.size()];
        int requests = Transactions.resubmit(rows.size(), table,
                pending -> store.deleteIfUnchanged(table, partitionKey, pending.stream().map(rows::get).toList()),
                (refusal, index, pending) -> {
                    outcomes[index] = refusal.gone() ? Outcome.GONE : Outcome.CHANGED;
                    if (!refusal.gone() || pending.size() <= 1) {
                        return 0;
                    }
                    Set<String> present = new HashSet<>(); // a replay's batch: most of its rows are gone too
                    int reads = present(store, table, partitionKey, pending.stream().map(rows::get).toList(), present);
                    pending.removeIf(i -> {
                        boolean gone = !present.contains(rows.get(i).rowKey());
                        if (gone) {
                            outcomes[i] = Outcome.GONE;
                        }
                        return gone;
                    });
                    return reads;
                }, i -> outcomes[i] = Outcome.DELETED);
        return new Result(Arrays.asList(outcomes), requests);
    }

    /** Adds to {@code present} the RowKeys of {@code rows} the partition holds (keys only); returns the requests. */
    private static int present(TableStore store, String table, String partitionKey, List<TableStore.Version> rows,
            Set<String> present) {
        List<Row> found = new ArrayList<>();
        int requests = Transactions.read(store, table, partitionKey,
                rows.stream().map(TableStore.Version::rowKey).toList(), List.of(), found);
        found.forEach(r -> present.add(r.rowKey()));
        return requests;
    }
}
