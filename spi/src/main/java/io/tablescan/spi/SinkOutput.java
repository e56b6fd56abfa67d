package io.tablescan.spi;

import java.util.Map;

/**
 * Records a sink publishes for the rows it is given, e.g. one message per row: they are sent in the worker's Kafka
 * transaction that commits the rows' work item, so a {@code read_committed} consumer sees each of them exactly once
 * even when the item is replayed. Records of an attempt that fails are discarded with it. Each record also carries
 * the scan's id in header {@code scanId}.
 */
public interface SinkOutput {
    /**
     * Publishes one record to {@code topic} (which must exist) when the rows' item commits.
     *
     * @param key the record's key (null for none)
     * @param headers the record's headers, by name
     */
    void publish(String topic, byte[] key, byte[] value, Map<String, byte[]> headers);
}
