package io.tablescan.runner;

import io.tablescan.azure.WireForm;
import io.tablescan.azure.RestTableReader;
import io.tablescan.azure.RestTableReader.WireRow;
import io.tablescan.azure.RestTableReader.WireValue;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Compares two tables row by row, in key order, every property by its type and its wire form: the text the
 * service sends ({@link WireForm}), so a DateTime written in another form than the source's is a difference.
 */
public final class TableComparer {
    public record Result(long sourceRows, long destinationRows, long differences, List<String> examples) {
        public boolean equal() {
            return differences == 0 && sourceRows == destinationRows;
        }
    }

    private TableComparer() {}

    public static Result compare(TableStore source, String sourceTable, TableStore destination, String destinationTable) {
        return compare(wireRows(source, sourceTable), wireRows(destination, destinationTable));
    }

    /** Two tables as the service sends them, read through plain REST (not the SDK that wrote the copy). */
    public static Result compare(RestTableReader source, String sourceTable, RestTableReader destination,
            String destinationTable) {
        return compare(source.rows(sourceTable), destination.rows(destinationTable));
    }

    static Result compare(Iterator<WireRow> a, Iterator<WireRow> b) {
        long countA = 0;
        long countB = 0;
        long differences = 0;
        List<String> examples = new ArrayList<>();
        WireRow x = next(a);
        WireRow y = next(b);
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : compareKeys(x, y);
            String problem = null;
            if (order < 0) {
                problem = "missing in destination: " + key(x);
            } else if (order > 0) {
                problem = "extra in destination: " + key(y);
            } else if (!x.properties().equals(y.properties())) {
                problem = "different properties: " + key(x) + firstDifference(x, y);
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
    public static List<Row> rows(TableStore store, String table) {
        List<Row> rows = new java.util.ArrayList<>();
        new Cursor(store, table).forEachRemaining(rows::add);
        return rows;
    }

    /** Same keys and the same properties (in any order; absent and null are alike). */
    public static boolean sameRow(Row x, Row y) {
        return compareKeys(x, y) == 0 && sorted(x.properties()).equals(sorted(y.properties()));
    }

    private static int compareKeys(Row x, Row y) {
        return compareKeys(x.partitionKey(), x.rowKey(), y.partitionKey(), y.rowKey());
    }

    private static int compareKeys(WireRow x, WireRow y) {
        return compareKeys(x.partitionKey(), x.rowKey(), y.partitionKey(), y.rowKey());
    }

    private static int compareKeys(String pkX, String rkX, String pkY, String rkY) {
        int c = pkX.compareTo(pkY);
        return c != 0 ? c : rkX.compareTo(rkY);
    }

    /** A row's properties in the service's wire form: type name and text (absent and null are alike). */
    static WireRow toWire(Row row) {
        Map<String, WireValue> values = new TreeMap<>();
        for (RowProperty p : row.properties()) {
            if (p.value() != null) {
                values.put(p.name(), new WireValue("Edm." + WireForm.name(p.type()), WireForm.text(p)));
            }
        }
        return new WireRow(row.partitionKey(), row.rowKey(), values);
    }

    private static String firstDifference(WireRow x, WireRow y) {
        Set<String> names = new TreeSet<>(x.properties().keySet());
        names.addAll(y.properties().keySet());
        for (String name : names) {
            WireValue a = x.properties().get(name);
            WireValue b = y.properties().get(name);
            if (!java.util.Objects.equals(a, b)) {
                return " " + name + ": " + shown(a) + " in the source, " + shown(b) + " in the destination";
            }
        }
        return "";
    }

    private static String shown(WireValue value) {
        if (value == null) {
            return "absent";
        }
        String text = value.text().length() > 60 ? value.text().substring(0, 60) + "..." : value.text();
        return value.type() + " '" + text + "'";
    }

    private static List<RowProperty> sorted(List<RowProperty> properties) {
        List<RowProperty> copy = new ArrayList<>(properties);
        copy.removeIf(p -> p.value() == null);
        copy.sort(Comparator.comparing(RowProperty::name));
        return copy;
    }

    private static String key(WireRow row) {
        return "(" + row.partitionKey() + ", " + row.rowKey() + ")";
    }

    private static <T> T next(Iterator<T> it) {
        return it.hasNext() ? it.next() : null;
    }

    private static Iterator<WireRow> wireRows(TableStore store, String table) {
        Cursor rows = new Cursor(store, table);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public WireRow next() {
                return toWire(rows.next());
            }
        };
    }

    /** Pages a whole table in key order, fetching the next page while the current one is compared. */
    private static final class Cursor implements Iterator<Row> {
        private final TableStore store;
        private final String table;
        private final QueryOptions options = new QueryOptions(QueryOptions.MAX_PAGE_SIZE, null, null);
        private Iterator<Row> rows = List.<Row>of().iterator();
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
        public Row next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.next();
        }
    }
}
