package io.tablescan.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
     * row (gone or changed) is dropped and the rest resubmitted. The outcomes are in the rows' order.
     */
    public static Result ifUnchanged(TableStore store, String table, String partitionKey,
            List<TableStore.Version> rows) {
        Outcome[] outcomes = new Outcome[rows.size()];
        int requests = 0;
        for (int from = 0; from < rows.size(); from += 100) {
            List<Integer> pending = new ArrayList<>();
            for (int i = from; i < Math.min(rows.size(), from + 100); i++) {
                pending.add(i);
            }
            while (!pending.isEmpty()) {
                List<TableStore.Version> batch = pending.stream().map(rows::get).toList();
                TableStore.Refusal refusal = store.deleteIfUnchanged(table, partitionKey, batch);
                requests++;
                if (refusal == null) {
                    pending.forEach(i -> outcomes[i] = Outcome.DELETED);
                    break;
                }
                if (refusal.index() < 0 || refusal.index() >= pending.size()) {
                    throw new TableStoreException("a delete refused an operation outside its batch on table " + table,
                            400, false, null);
                }
                outcomes[pending.remove(refusal.index())] = refusal.gone() ? Outcome.GONE : Outcome.CHANGED;
            }
        }
        return new Result(Arrays.asList(outcomes), requests);
    }
}
