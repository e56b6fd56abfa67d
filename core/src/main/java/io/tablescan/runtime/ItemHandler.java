package io.tablescan.runtime;

import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * What a worker does with one work item. Failures throw; transient table errors are retried below this, by
 * the stores and sinks the handler takes through its worker's settings and counts in the item's context.
 */
public interface ItemHandler<T extends SpecificRecord> {
    Class<T> type();

    Result handle(T item, ItemContext context);

    /** Releases what the handler holds (the copy-worker's sinks) when its worker stops. */
    default void close() {}

    /** The items to emit and what the step did; {@code partitions}: those whose first selected row it read. */
    record Result(List<SpecificRecord> emitted, long rowsRead, long rowsWritten, int requests, long partitions) {
        public Result(List<SpecificRecord> emitted, long rowsRead, long rowsWritten, int requests) {
            this(emitted, rowsRead, rowsWritten, requests, 0);
        }
    }
}
