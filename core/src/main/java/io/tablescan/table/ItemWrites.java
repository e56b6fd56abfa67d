package io.tablescan.table;

/**
 * Whether one work item has sent a write yet (a row, a batch of deletes, a sink's write): an item that has written
 * nothing can be skipped whole when its scan is cancelled, one that has cannot (what it wrote must be counted).
 */
public interface ItemWrites {
    /** A write of the item's is about to be sent (one that then fails may still have written). */
    void writing();

    /** Whether any write of the item's was sent. */
    boolean hasWritten();
}
