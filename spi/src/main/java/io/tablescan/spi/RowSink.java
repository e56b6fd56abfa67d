package io.tablescan.spi;

import java.util.List;

/**
 * Does something with every row of a scan: one instance per sink reference and worker, called from many
 * threads at once. Batches come in no particular order and may come again (a replay after a crash), so a
 * write must be idempotent: writing the same rows twice leaves the same result as once.
 */
public interface RowSink extends AutoCloseable {
    /**
     * Called once before the first write of this instance, e.g. to create the target. A failure is reported
     * like a write's, and prepare is called again before the next write.
     */
    default void prepare() {}

    /**
     * Writes rows of one partition (1 to 100, distinct row keys). Throws {@link SinkException} on failure.
     *
     * @return the requests it took to the target, for the scan's request counts
     */
    int write(List<Row> rows);

    /**
     * What the worker calls: writes rows of one partition like {@link #write(List)}, and may publish Kafka records
     * for them through {@code output}, committed with the rows' work item. A sink that publishes overrides this.
     */
    default int write(List<Row> rows, SinkOutput output) {
        return write(rows);
    }

    /** Called once when the worker stops; a write abandoned at shutdown may still be running. */
    @Override
    default void close() {}
}
