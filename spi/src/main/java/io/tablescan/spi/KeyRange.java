package io.tablescan.spi;

/**
 * Rows whose PartitionKey lies in [lower, upper). {@code lowerRow} narrows the first partition: with it,
 * only rows of partition {@code lower.key} at or after that RowKey bound are included (the serial
 * strategy resumes mid-partition this way). Null bounds are open.
 */
public record KeyRange(Bound lower, Bound lowerRow, String upper) implements ScanQuery {
    public static final KeyRange ALL = new KeyRange(null, null, null);

    public KeyRange {
        if (lowerRow != null && (lower == null || !lower.inclusive())) {
            throw new IllegalArgumentException("a RowKey bound needs an inclusive PartitionKey bound");
        }
    }

    public KeyRange(Bound lower, String upper) {
        this(lower, null, upper);
    }

    /** True when no key can lie in the range. */
    public boolean isEmpty() {
        if (upper == null) {
            return false;
        }
        if (lower == null) {
            return upper.isEmpty();
        }
        return lower.key().compareTo(upper) >= 0;
    }

    public boolean contains(String partitionKey, String rowKey) {
        if (upper != null && partitionKey.compareTo(upper) >= 0) {
            return false;
        }
        if (lower == null) {
            return true;
        }
        if (lowerRow != null && partitionKey.equals(lower.key())) {
            return lowerRow.admits(rowKey);
        }
        return lower.admits(partitionKey);
    }
}
