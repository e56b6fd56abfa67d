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
                if (refusal.gone() && pending.size() > 1) { // a replay's batch: most of its rows are gone too
                    Set<String> present = new HashSet<>();
                    requests += present(store, table, partitionKey, pending.stream().map(rows::get).toList(), present);
                    pending.removeIf(i -> {
                        boolean gone = !present.contains(rows.get(i).rowKey());
                        if (gone) {
                            outcomes[i] = Outcome.GONE;
                        }
                        return gone;
                    });
                }
            }
        }
        return new Result(Arrays.asList(outcomes), requests);
    }

    /** Adds to {@code present} the RowKeys of {@code rows} the partition holds (keys only); returns the requests. */
    private static int present(TableStore store, String table, String partitionKey, List<TableStore.Version> rows,
            Set<String> present) {
        String first = rows.stream().map(TableStore.Version::rowKey).min(String::compareTo).orElseThrow();
        String last = rows.stream().map(TableStore.Version::rowKey).max(String::compareTo).orElseThrow();
        Set<String> wanted = new HashSet<>();
        rows.forEach(r -> wanted.add(r.rowKey()));
        QueryOptions keysOnly = new QueryOptions(QueryOptions.MAX_PAGE_SIZE, List.of(),
                "RowKey le " + Keys.literal(last));
        int requests = 0;
        Continuation next = null;
        do {
            Page page = store.query(table, new PartitionRange(partitionKey, Bound.from(first)), keysOnly, next);
            requests++;
            page.rows().stream().map(Row::rowKey).filter(wanted::contains).forEach(present::add);
            next = page.next();
        } while (next != null);
        return requests;
    }
}
