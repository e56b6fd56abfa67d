package io.tablescan.bench;

import io.tablescan.cli.SampleTable;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A source that times the reads of the generated table's big partition against the scan's first read: the
 * chain of page reads that no parallelism shortens, and so the floor of a prefix scan under latency.
 */
final class BigPartitionReads implements TableStore {
    private final TableStore source;
    private final AtomicLong firstRead = new AtomicLong();
    private final AtomicLong bigFirstStart = new AtomicLong();
    private final AtomicLong bigLastEnd = new AtomicLong();
    private final AtomicLong bigReads = new AtomicLong();

    BigPartitionReads(TableStore source) {
        this.source = source;
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        long start = System.nanoTime();
        firstRead.compareAndSet(0, start);
        Page page = source.query(table, query, options, from);
        List<Row> rows = page.rows();
        if (!rows.isEmpty() && rows.getLast().partitionKey().equals(SampleTable.BIG_PARTITION)) {
            bigReads.incrementAndGet();
            bigFirstStart.compareAndSet(0, start);
            bigLastEnd.accumulateAndGet(System.nanoTime(), Math::max);
        }
        return page;
    }

    /** One line: the big partition's reads, from the scan's first read, against the scan's end (now). */
    String summary() {
        if (bigReads.get() == 0) {
            return "  (no read of the big partition)";
        }
        long zero = firstRead.get();
        return String.format(Locale.ROOT, "  big partition: %d page reads from %.2f to %.2f s after the scan's first "
                + "read; the scan's end seen at %.2f s", bigReads.get(), (bigFirstStart.get() - zero) / 1e9,
                (bigLastEnd.get() - zero) / 1e9, (System.nanoTime() - zero) / 1e9);
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        source.upsert(table, partitionKey, rows);
    }

    @Override
    public void createTableIfNotExists(String table) {
        source.createTableIfNotExists(table);
    }

    @Override
    public boolean tableExists(String table) {
        return source.tableExists(table);
    }
}
