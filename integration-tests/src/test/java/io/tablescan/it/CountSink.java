package io.tablescan.it;

import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sink of type {@code count} that only counts the rows it gets, per key, in this JVM: the proof that a new
 * sink is one class plus its line in {@code META-INF/services/io.tablescan.spi.SinkProvider} (test resources).
 * The provider (made by ServiceLoader) and the sink (one per target) are the same class, to keep it one.
 */
public final class CountSink implements SinkProvider, RowSink {
    /** Per target: how often each key (PartitionKey, NUL, RowKey) was written. */
    private static final Map<String, Map<String, AtomicInteger>> COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> PREPARES = new ConcurrentHashMap<>();

    private final String target;

    public CountSink() {
        this(null); // the provider, as ServiceLoader makes it
    }

    private CountSink(String target) {
        this.target = target;
    }

    /** Writes per key to {@code target} so far. */
    static Map<String, AtomicInteger> counts(String target) {
        return COUNTS.getOrDefault(target, Map.of());
    }

    static int prepares(String target) {
        return PREPARES.getOrDefault(target, new AtomicInteger()).get();
    }

    static String key(String partitionKey, String rowKey) {
        return partitionKey + '\0' + rowKey;
    }

    @Override
    public String type() {
        return "count";
    }

    @Override
    public RowSink create(SinkContext context) {
        return new CountSink(context.ref().target());
    }

    @Override
    public void prepare() {
        PREPARES.computeIfAbsent(target, t -> new AtomicInteger()).incrementAndGet();
        COUNTS.putIfAbsent(target, new ConcurrentHashMap<>());
    }

    @Override
    public int write(List<Row> rows) {
        Map<String, AtomicInteger> counts = COUNTS.get(target);
        for (Row row : rows) {
            counts.computeIfAbsent(key(row.partitionKey(), row.rowKey()), k -> new AtomicInteger()).incrementAndGet();
        }
        return 1;
    }
}
