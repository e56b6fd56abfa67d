package io.tablescan.spi;

import java.util.List;
import java.util.Objects;

/**
 * One row of a table: its keys and its typed properties. The service's Timestamp, when the row was read with one,
 * rides along for reference ({@code timestamp}, 100 ns ticks since the Unix epoch, else null): it is the service's,
 * not the row's, so no write sends it and two rows are equal whatever their Timestamps. The service's ETag, when
 * read ({@code etag}, else null), is the row's version as read: a conditional delete sends it, no write does, and
 * two rows are equal whatever their ETags.
 */
public record Row(String partitionKey, String rowKey, List<RowProperty> properties, Long timestamp, String etag) {
    /** A row without a Timestamp: one to write, or read without it. */
    public Row(String partitionKey, String rowKey, List<RowProperty> properties) {
        this(partitionKey, rowKey, properties, null, null);
    }

    /** A row read with a Timestamp but no ETag. */
    public Row(String partitionKey, String rowKey, List<RowProperty> properties, Long timestamp) {
        this(partitionKey, rowKey, properties, timestamp, null);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Row r && partitionKey.equals(r.partitionKey) && rowKey.equals(r.rowKey)
                && properties.equals(r.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partitionKey, rowKey, properties);
    }
}
