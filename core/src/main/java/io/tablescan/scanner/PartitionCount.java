package io.tablescan.scanner;

import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.List;

/**
 * Counts each partition with selected rows exactly once in a scan, though several items may read it (a page
 * ends inside a partition and a partition query goes on with it; a serial chain resumes mid-partition; an
 * empty page's continuation lands inside one). The item that reads a partition's first selected row counts
 * it. An item tells that from its first row and its {@code continued} partition: the PartitionKey its range
 * starts inside after a row of it was read before the range (null: none), which every hand-off carries on.
 * Pure: an item's count depends on its own record and rows only, and is committed once, with the item's event
 * (the transaction of a delivery that is replayed aborts, and its event with it).
 */
public final class PartitionCount {
    private PartitionCount() {}

    /** The partitions whose first selected row is among {@code rows} (in key order, as a step reads them). */
    public static long counted(String continued, List<Row> rows) {
        long count = 0;
        String previous = continued;
        for (Row row : rows) {
            if (!row.partitionKey().equals(previous)) {
                count++;
                previous = row.partitionKey();
            }
        }
        return count;
    }

    /**
     * What {@code handoff} continues: the partition its range starts inside, when a row of it was read before
     * the range, by this step ({@code rows}) or before this step's own range ({@code continued}). Every row
     * the step read of that partition lies before the hand-off, which is the partition's unread rest.
     */
    public static String continuedBy(ScanQuery handoff, String continued, List<Row> rows) {
        String inside = switch (handoff) {
            case PartitionRange p -> p.partitionKey();
            case KeyRange r -> r.lower() != null && r.lower().inclusive() ? r.lower().key() : null;
        };
        if (inside == null) {
            return null;
        }
        if (inside.equals(continued)) {
            return inside;
        }
        for (Row row : rows) {
            if (row.partitionKey().equals(inside)) {
                return inside;
            }
        }
        return null;
    }
}
