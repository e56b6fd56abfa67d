package io.tablescan.spi;

import java.util.List;

/**
 * Does something with every row of a scan: one instance per sink reference and worker, called from many
 * threads at once. Batches come in no particular order and may come again (a replay after a crash), so a
 * write must be idempotent: writing the same rows twice leaves the same result as once. A sink may buffer
 * rows (file or Blob blocks, say) as long as it makes them durable at its commit point, {@link #flush()}.
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

    /**
     * The commit point (as Kafka Connect's {@code flush}): the worker calls it before it commits the Kafka
     * transaction that holds the work items whose rows were given to this sink since its last flush, so every row
     * of a write that returned before this call must be durable when it returns. Rows of writes still running may
     * be included or left for the next flush. Called by one thread at a time, only after writes, concurrently
     * with other writes; the worker's loop waits for it, so it should take seconds, not minutes. Throws
     * {@link SinkException} on failure (a transient one is retried as a write's): then nothing of the transaction
     * commits and every work item of the worker not yet committed is replayed, so the rows it was given before a
     * failed flush need not be kept (after five failed flushes in a row, those items are parked with the error
     * instead, for a later retry). The default does nothing: each write is durable when it returns.
     */
    default void flush() {}

    /**
     * Called once when the worker stops; a write abandoned at shutdown may still be running. Rows not flushed by
     * then are those of items not committed, which are replayed: they may be dropped.
     */
    @Override
    default void close() {}
}
