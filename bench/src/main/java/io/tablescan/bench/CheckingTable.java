package io.tablescan.bench;

import io.tablescan.runner.TableComparer;
import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A destination that keeps no rows: it checks each written row against the generated source and marks its
 * position, so a copy of millions of rows is verified exactly in a few hundred kilobytes.
 */
final class CheckingTable implements InMemoryTableStore.Rows {
    private final GeneratedTable source;
    private final BitSet written;
    private final AtomicLong wrong = new AtomicLong();

    CheckingTable(GeneratedTable source) {
        this.source = source;
        this.written = new BitSet(source.size());
    }

    @Override
    public void put(Row row) {
        int p = source.partitionNamed(row.partitionKey());
        int r = p < 0 ? -1 : parse(row.rowKey());
        if (p < 0 || r < 0 || r >= source.partitionSize(p) || !same(row, source.row(p, r))) {
            wrong.incrementAndGet();
            return;
        }
        synchronized (written) {
            written.set(source.start(p) + r);
        }
    }

    /** Copies keep the property order, so a plain comparison is the fast path. */
    private static boolean same(Row written, Row expected) {
        return written.equals(expected) || TableComparer.sameRow(written, expected);
    }

    /** Rows of the source never written. */
    long missing() {
        synchronized (written) {
            return source.size() - written.cardinality();
        }
    }

    /** Writes of rows the source does not have, or with other values. */
    long wrong() {
        return wrong.get();
    }

    boolean exact() {
        return missing() == 0 && wrong() == 0;
    }

    @Override
    public Iterable<Row> from(String partitionKey, String rowKey) {
        return List.of(); // write-only: the copy never reads its destination
    }

    @Override
    public String firstRowKey(String partitionKey) {
        return null;
    }

    @Override
    public List<Row> all() {
        return List.of();
    }

    private static int parse(String rowKey) {
        try {
            return rowKey.equals(GeneratedTable.rowKey(Integer.parseInt(rowKey))) ? Integer.parseInt(rowKey) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
