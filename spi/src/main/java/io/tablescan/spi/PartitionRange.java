package io.tablescan.spi;

/** Rows of one partition whose RowKey satisfies {@code rowLower} (null: the whole partition). */
public record PartitionRange(String partitionKey, Bound rowLower) implements ScanQuery {
    public boolean contains(String pk, String rowKey) {
        return pk.equals(partitionKey) && (rowLower == null || rowLower.admits(rowKey));
    }
}
