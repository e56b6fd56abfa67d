package io.tablescan.table;

/**
 * Whether one work item of a capped scan has sent a write yet (a row or a batch of deletes through its capped store, a
 * sink's write under the write cap): only such an item's reads can give up when its scan is cancelled, and only while
 * it has written nothing, so that it is skipped whole (an item that has written goes on, and its writes are counted).
 */
public interface ItemWrites {
    /** A write of the item's is about to be sent (one that then fails may still have written). */
    void writing();

    /** Whether any write of the item's was sent. */
    boolean hasWritten();
}
