package io.tablescan.cli;

import io.tablescan.scanner.Continuation;
import io.tablescan.scanner.KeyRange;
import io.tablescan.scanner.Page;
import io.tablescan.scanner.TableRow;
import io.tablescan.schema.Property;
import io.tablescan.table.QueryOptions;
import io.tablescan.table.TableStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/** Compares two tables row by row, in key order, every property with its type. */
public final class TableComparer {
    public record Result(long sourceRows, long destinationRows, long differences, List<String> examples) {
        public boolean equal() {
            return differences == 0 && sourceRows == destinationRows;
        }
    }

    private TableComparer() {}

    public static Result compare(TableStore source, String sourceTable, TableStore destination, String destinationTable) {
        Iterator<TableRow> a = new Cursor(source, sourceTable);
        Iterator<TableRow> b = new Cursor(destination, destinationTable);
        long countA = 0;
        long countB = 0;
        long differences = 0;
        List<String> examples = new ArrayList<>();
        TableRow x = next(a);
        TableRow y = next(b);
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : compareKeys(x, y);
            String problem = null;
            if (order < 0) {
                problem = "missing in destination: " + key(x);
            } else if (order > 0) {
                problem = "extra in destination: " + key(y);
            } else if (!sameRow(x, y)) {
                problem = "different properties: " + key(x);
            }
            if (problem != null) {
                differences++;
                if (examples.size() < 5) {
                    examples.add(problem);
                }
            }
            if (order <= 0) {
                countA++;
                x = next(a);
            }
            if (order >= 0) {
                countB++;
                y = next(b);
            }
        }
        return new Result(countA, countB, differences, examples);
    }

    /** Every row of a table, in key order. */
    public static List<TableRow> rows(TableStore store, String table) {
        List<TableRow> rows = new java.util.ArrayList<>();
        new Cursor(store, table).forEachRemaining(rows::add);
        return rows;
    }

    /** Same keys and the same properties (in any order; absent and null are alike). */
    static boolean sameRow(TableRow x, TableRow y) {
        return compareKeys(x, y) == 0 && sorted(x.properties()).equals(sorted(y.properties()));
    }

    private static int compareKeys(TableRow x, TableRow y) {
        int c = x.partitionKey().compareTo(y.partitionKey());
        return c != 0 ? c : x.rowKey().compareTo(y.rowKey());
    }

    private static List<Property> sorted(List<Property> properties) {
        List<Property> copy = new ArrayList<>(properties);
        copy.removeIf(p -> p.getValue() == null);
        copy.sort(Comparator.comparing(Property::getName));
        return copy;
    }

    private static String key(TableRow row) {
        return "(" + row.partitionKey() + ", " + row.rowKey() + ")";
    }

    private static TableRow next(Iterator<TableRow> it) {
        return it.hasNext() ? it.next() : null;
    }

    /** Pages a whole table in key order, fetching the next page while the current one is compared. */
    private static final class Cursor implements Iterator<TableRow> {
        private final TableStore store;
        private final String table;
        private final QueryOptions options = new QueryOptions(1000, null, null);
        private Iterator<TableRow> rows = List.<TableRow>of().iterator();
        private CompletableFuture<Page> pending;

        Cursor(TableStore store, String table) {
            this.store = store;
            this.table = table;
            this.pending = fetch(null);
        }

        private CompletableFuture<Page> fetch(Continuation from) {
            return CompletableFuture.supplyAsync(() -> store.query(table, KeyRange.ALL, options, from));
        }

        @Override
        public boolean hasNext() {
            while (!rows.hasNext() && pending != null) {
                Page page = pending.join();
                pending = page.next() == null ? null : fetch(page.next());
                rows = page.rows().iterator();
            }
            return rows.hasNext();
        }

        @Override
        public TableRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.next();
        }
    }
}
