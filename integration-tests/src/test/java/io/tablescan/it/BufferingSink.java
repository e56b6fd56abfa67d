package io.tablescan.it;

import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkProvider;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sink of type {@code buffering} that keeps the rows it gets in memory and writes them to its target table
 * (on the reference's account) only at its commit point, {@link #flush()}, as a sink of file or Blob blocks would:
 * a row not flushed is lost with its process. Option {@code fail-flushes}: its first n flushes fail for good
 * (dropping the rows they held). Registered like {@link CountSink}; the cluster's child workers find it too.
 */
public final class BufferingSink implements SinkProvider, RowSink {
    /** Per target, in this JVM: the rows given to its sinks, and the flushes that failed. */
    private static final Map<String, AtomicLong> GIVEN = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> FAILED_FLUSHES = new ConcurrentHashMap<>();

    private final TableStore table;
    private final String target;
    private final AtomicInteger failFlushes;
    private Map<String, Row> buffer = new LinkedHashMap<>();

    public BufferingSink() {
        this(null, null, 0); // the provider, as ServiceLoader makes it
    }

    private BufferingSink(TableStore table, String target, int failFlushes) {
        this.table = table;
        this.target = target;
        this.failFlushes = new AtomicInteger(failFlushes);
    }

    static long given(String target) {
        return GIVEN.getOrDefault(target, new AtomicLong()).get();
    }

    static int failedFlushes(String target) {
        return FAILED_FLUSHES.getOrDefault(target, new AtomicInteger()).get();
    }

    @Override
    public String type() {
        return "buffering";
    }

    @Override
    public RowSink create(SinkContext context) {
        return new BufferingSink(context.account(context.ref().account(), TableStore.class), context.ref().target(),
                Integer.parseInt(context.ref().options().getOrDefault("fail-flushes", "0")));
    }

    @Override
    public void prepare() {
        table.createTableIfNotExists(target);
    }

    @Override
    public int write(List<Row> rows) {
        synchronized (this) {
            rows.forEach(row -> buffer.put(row.partitionKey() + '\0' + row.rowKey(), row));
        }
        GIVEN.computeIfAbsent(target, t -> new AtomicLong()).addAndGet(rows.size());
        return 0; // no request yet
    }

    @Override
    public void flush() {
        Map<String, Row> taken;
        synchronized (this) {
            taken = buffer;
            buffer = new LinkedHashMap<>();
        }
        if (failFlushes.getAndDecrement() > 0) {
            FAILED_FLUSHES.computeIfAbsent(target, t -> new AtomicInteger()).incrementAndGet();
            throw SinkException.permanent("flush refused by the test (" + taken.size() + " rows dropped)");
        }
        Map<String, List<Row>> byPartition = new TreeMap<>();
        taken.values().forEach(row -> byPartition.computeIfAbsent(row.partitionKey(), p -> new ArrayList<>()).add(row));
        byPartition.forEach((partitionKey, rows) -> {
            for (int from = 0; from < rows.size(); from += 100) {
                table.upsert(target, partitionKey, rows.subList(from, Math.min(rows.size(), from + 100)));
            }
        });
    }
}
