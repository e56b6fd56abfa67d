package io.tablescan.runtime;

import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * What a worker does with one work item. Failures throw; transient table errors are retried below this, by
 * the stores and sinks the handler takes through its worker's settings and counts in the item's context.
 */
public interface ItemHandler<T extends SpecificRecord> {
    Class<T> type();

    Result handle(T item, ItemContext context);

    /**
     * Whether an item that emits one item of its own kind emits its remainder (a partition's next pages), best
     * gone on with by the worker that read it while it has a slot free rather than handed off through Kafka.
     */
    default boolean continuesChains() {
        return false;
    }

    /**
     * The commit point: called by the worker's loop before each transaction that commits finished items, so
     * what the handler's sinks buffered for them is made durable. Throwing aborts the transaction: its items,
     * and every other one of the worker not committed yet, are replayed.
     */
    default void flush() {}

    /** Releases what the handler holds (the copy-worker's sinks) when its worker stops. */
    default void close() {}

    /**
     * The items to emit and what the step did; {@code partitions}: those whose first selected row it read;
     * {@code counters}: its job's named counts (see {@code Job#counters}), summed into the scan's.
     */
    record Result(List<SpecificRecord> emitted, long rowsRead, long rowsWritten, int requests, long partitions,
            Map<String, Long> counters) {
        public Result {
            counters = Map.copyOf(counters);
        }

        public Result(List<SpecificRecord> emitted, long rowsRead, long rowsWritten, int requests) {
            this(emitted, rowsRead, rowsWritten, requests, 0);
        }

        public Result(List<SpecificRecord> emitted, long rowsRead, long rowsWritten, int requests, long partitions) {
            this(emitted, rowsRead, rowsWritten, requests, partitions, Map.of());
        }
    }
}
