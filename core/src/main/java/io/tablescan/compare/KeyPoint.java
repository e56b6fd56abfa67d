package io.tablescan.compare;

import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.ScanQuery;

/**
 * A place in the table's key order, (PartitionKey, RowKey), between rows: where a work item's range starts or
 * ends. Every bound a scan item can have is one of these, so the part of the key space an item covered itself
 * (its range less the ranges it handed off) is a list of [start, end) pairs of them.
 */
record KeyPoint(Place place, String partitionKey, String rowKey) implements Comparable<KeyPoint> {
    /** In order within one partition: before its first row, before or after one RowKey, after its last row. */
    enum Place { MIN, PARTITION_START, AT, AFTER, PARTITION_END, MAX }

    static final KeyPoint MIN = new KeyPoint(Place.MIN, null, null);
    static final KeyPoint MAX = new KeyPoint(Place.MAX, null, null);

    static KeyPoint start(String pk) {
        return new KeyPoint(Place.PARTITION_START, pk, null);
    }

    static KeyPoint end(String pk) {
        return new KeyPoint(Place.PARTITION_END, pk, null);
    }

    /** Just before the row (pk, rk): a row is in [a, b) when a <= row(pk, rk) < b. */
    static KeyPoint row(String pk, String rk) {
        return new KeyPoint(Place.AT, pk, rk);
    }

    static KeyPoint rowBound(String pk, Bound rowLower) {
        return rowLower == null ? start(pk)
                : new KeyPoint(rowLower.inclusive() ? Place.AT : Place.AFTER, pk, rowLower.key());
    }

    /** Where a query's rows start. */
    static KeyPoint startOf(ScanQuery query) {
        return switch (query) {
            case KeyRange r -> r.lower() == null ? MIN
                    : r.lower().inclusive() ? rowBound(r.lower().key(), r.lowerRow()) : end(r.lower().key());
            case PartitionRange p -> rowBound(p.partitionKey(), p.rowLower());
        };
    }

    /** Where a query's rows end (exclusive). */
    static KeyPoint endOf(ScanQuery query) {
        return switch (query) {
            case KeyRange r -> r.upper() == null ? MAX : start(r.upper());
            case PartitionRange p -> end(p.partitionKey());
        };
    }

    boolean inPartition() {
        return place != Place.MIN && place != Place.MAX;
    }

    @Override
    public int compareTo(KeyPoint o) {
        if (place == Place.MIN || o.place == Place.MAX) {
            return place == o.place ? 0 : -1;
        }
        if (place == Place.MAX || o.place == Place.MIN) {
            return 1;
        }
        int c = partitionKey.compareTo(o.partitionKey);
        if (c != 0) {
            return c;
        }
        boolean rowed = place == Place.AT || place == Place.AFTER;
        boolean otherRowed = o.place == Place.AT || o.place == Place.AFTER;
        if (rowed && otherRowed) {
            c = rowKey.compareTo(o.rowKey);
            return c != 0 ? c : place.compareTo(o.place);
        }
        return Integer.compare(rank(), o.rank());
    }

    /** Within one partition, when at most one side names a RowKey: start < any RowKey < end. */
    private int rank() {
        return switch (place) {
            case PARTITION_START -> 0;
            case PARTITION_END -> 2;
            default -> 1;
        };
    }
}
