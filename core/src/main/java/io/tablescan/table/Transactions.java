package io.tablescan.table;

import io.tablescan.scanner.Keys;
import io.tablescan.spi.Bound;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Conditional transactions of a partition's rows, 100 at a time: the service applies a transaction all or none and
 * names the first operation it refused, so the refused row is settled ({@link Settle}) and the rest resubmitted.
 * Shared by the conditional deletes ({@link TableDeletes}) and writes ({@link TableWrites}).
 */
final class Transactions {
    /** What to do with a refused row, and perhaps with the other rows still pending. */
    interface Settle {
        /**
         * Settles the row {@code index} the service refused; may settle rows of {@code pending} too (removing them),
         * for instance those a read shows need no resubmission.
         *
         * @return the requests this took
         */
        int refused(TableStore.Refusal refusal, int index, List<Integer> pending);
    }

    private Transactions() {}

    /**
     * Submits rows {@code 0..size-1} in transactions of up to 100 ({@code submit} gets their indices, answers as the
     * store's conditional operation), each refused row settled and the rest resubmitted until one succeeds.
     *
     * @param applied called for each row of a transaction that succeeded
     * @return the requests it took
     */
    static int resubmit(int size, String table, Function<List<Integer>, TableStore.Refusal> submit, Settle settle,
            IntConsumer applied) {
        int requests = 0;
        for (int from = 0; from < size; from += 100) {
            List<Integer> pending = new ArrayList<>();
            for (int i = from; i < Math.min(size, from + 100); i++) {
                pending.add(i);
            }
            while (!pending.isEmpty()) {
                TableStore.Refusal refusal = submit.apply(List.copyOf(pending));
                requests++;
                if (refusal == null) {
                    pending.forEach(applied::accept);
                    break;
                }
                if (refusal.index() < 0 || refusal.index() >= pending.size()) {
                    throw new TableStoreException("a transaction refused an operation outside its batch on table "
                            + table, 400, false, null);
                }
                int index = pending.remove(refusal.index());
                requests += settle.refused(refusal, index, pending);
            }
        }
        return requests;
    }

    /**
     * Adds to {@code found} the rows of {@code rowKeys} the partition holds, with the properties {@code select} names
     * (null: all) and their ETags: one query of the keys' span; returns the requests it took.
     */
    static int read(TableStore store, String table, String partitionKey, List<String> rowKeys, List<String> select,
            List<Row> found) {
        String first = rowKeys.stream().min(String::compareTo).orElseThrow();
        String last = rowKeys.stream().max(String::compareTo).orElseThrow();
        Set<String> wanted = new HashSet<>(rowKeys);
        QueryOptions options = new QueryOptions(QueryOptions.MAX_PAGE_SIZE, select, "RowKey le " + Keys.literal(last));
        int requests = 0;
        Continuation next = null;
        do {
            Page page = store.query(table, new PartitionRange(partitionKey, Bound.from(first)), options, next);
            requests++;
            page.rows().stream().filter(r -> wanted.contains(r.rowKey())).forEach(found::add);
            next = page.next();
        } while (next != null);
        return requests;
    }
}
