package io.tablescan.table;

import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * Conditional writes of a partition's rows in transactions of up to 100 ({@link TableStore#writeIfUnchanged}):
 * inserts that must not overwrite, and a mirror's replacements that must not overwrite a row changed since it was
 * read. A refused row is settled by reading what the table holds: a row that already holds the values to write was
 * written (by a replay of this batch, or a retried request the service had applied), any other is refused.
 */
public final class TableWrites {
    /** How the write of one row ended. */
    public enum Outcome {
        /** Written now, or found holding the values to write already. */
        WRITTEN,
        /** Not written: the table holds another row under its keys (an insert's), or it changed since read. */
        REFUSED
    }

    /** What a partition's writes came to, in the rows' order, and the requests they took. */
    public record Result(List<Outcome> outcomes, int requests) {
        public long count(Outcome outcome) {
            return outcomes.stream().filter(o -> o == outcome).count();
        }
    }

    private TableWrites() {}

    /**
     * Writes these rows of one partition, each only if the table still holds what it was read as ({@code etags}, in
     * the rows' order: null inserts, refused when a row exists). {@code same} tells whether a row read holds the
     * values of a row to write (properties compared as a verify does).
     */
    public static Result ifUnchanged(TableStore store, String table, String partitionKey, List<Row> rows,
            List<String> etags, BiPredicate<Row, Row> same) {
        Outcome[] outcomes = new Outcome[rows.size()];
        int requests = Transactions.resubmit(rows.size(), table,
                pending -> store.writeIfUnchanged(table, partitionKey, pending.stream().map(rows::get).toList(),
                        pending.stream().map(etags::get).toList()),
                (refusal, index, pending) -> {
                    List<Integer> settling = new ArrayList<>(pending);
                    settling.add(index);
                    List<Row> found = new ArrayList<>();
                    int reads = Transactions.read(store, table, partitionKey,
                            settling.stream().map(i -> rows.get(i).rowKey()).toList(), null, found);
                    Map<String, Row> held = new HashMap<>();
                    found.forEach(r -> held.put(r.rowKey(), r));
                    Row now = held.get(rows.get(index).rowKey());
                    outcomes[index] = now != null && same.test(rows.get(index), now) ? Outcome.WRITTEN
                            : Outcome.REFUSED;
                    pending.removeIf(i -> { // settled by the read: no resubmission can write them
                        Row current = held.get(rows.get(i).rowKey());
                        if (current != null && same.test(rows.get(i), current)) {
                            outcomes[i] = Outcome.WRITTEN;
                            return true;
                        }
                        String etag = etags.get(i);
                        boolean refused = etag == null ? current != null
                                : current == null || !Objects.equals(etag, current.etag());
                        if (refused) {
                            outcomes[i] = Outcome.REFUSED;
                        }
                        return refused;
                    });
                    return reads;
                }, i -> outcomes[i] = Outcome.WRITTEN);
        return new Result(Arrays.asList(outcomes), requests);
    }

    /** Inserts these rows of one partition: a row the table holds already is left as it is (see ifUnchanged). */
    public static Result insert(TableStore store, String table, String partitionKey, List<Row> rows,
            BiPredicate<Row, Row> same) {
        return ifUnchanged(store, table, partitionKey, rows, java.util.Collections.nCopies(rows.size(), null), same);
    }
}
