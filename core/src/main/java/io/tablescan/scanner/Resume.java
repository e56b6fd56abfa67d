package io.tablescan.scanner;

import io.tablescan.spi.Bound;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;

/** Restates "the rest of this query" as bounds, from a continuation or from the last row read. */
final class Resume {
    private Resume() {}

    /** The part of {@code range} at or after the continuation, else after {@code lastRow}, else all of it. */
    static KeyRange range(KeyRange range, Continuation token, Row lastRow) {
        if (token != null && token.nextPartitionKey() != null) {
            String rk = token.nextRowKey();
            return new KeyRange(Bound.from(token.nextPartitionKey()), rk == null ? null : Bound.from(rk), range.upper());
        }
        if (lastRow != null) {
            return new KeyRange(Bound.from(lastRow.partitionKey()), Bound.after(lastRow.rowKey()), range.upper());
        }
        return range;
    }

    /** The part of {@code partition} at or after the continuation, else after {@code lastRow}, else all of it. */
    static PartitionRange partition(PartitionRange partition, Continuation token, Row lastRow) {
        if (token != null && partition.partitionKey().equals(token.nextPartitionKey()) && token.nextRowKey() != null) {
            return new PartitionRange(partition.partitionKey(), Bound.from(token.nextRowKey()));
        }
        if (lastRow != null) {
            return new PartitionRange(partition.partitionKey(), Bound.after(lastRow.rowKey()));
        }
        return partition;
    }

    /** False when the continuation shows that no more rows of {@code partitionKey} follow. */
    static boolean partitionMayContinue(String partitionKey, Continuation token) {
        String next = token.nextPartitionKey();
        return next == null || next.compareTo(partitionKey) <= 0;
    }
}
