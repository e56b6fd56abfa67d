package io.tablescan.spi;

import java.util.List;

/**
 * The tables of one storage account: a {@link RowSource} the scanner reads, plus the writes and table admin
 * of the table sink. Every call is one service request; failures are {@link TableStoreException}s that say
 * whether a retry can help.
 */
public interface TableStore extends RowSource {
    /**
     * Whether a query's pages come in PartitionKey/RowKey order, as Azure Table Storage (and Azurite) serve them: the
     * scan infers from that order which keys it has finished. Azure Cosmos DB for Table's do not.
     */
    default boolean rowsInKeyOrder() {
        return true;
    }

    /** Writes rows of one partition (at most 100, at most 4 MiB) atomically, replacing existing rows. */
    void upsert(String table, String partitionKey, List<Row> rows);

    /**
     * Writes rows of one partition (at most 100, at most 4 MiB) atomically, merging each into the row it finds:
     * properties the row lacks are kept, a missing row is inserted.
     */
    default void merge(String table, String partitionKey, List<Row> rows) {
        throw new UnsupportedOperationException("this store cannot merge rows");
    }

    /**
     * Writes 1 to 100 rows of one partition in one transaction, each only if the table still holds what it was read
     * as: a row whose ETag ({@code etags}, in the rows' order) is null is inserted (refused when the table holds one
     * under its keys), any other replaces the row only if it still has that ETag (refused when changed, or gone). The
     * service applies all or none; core's {@code TableWrites.ifUnchanged} resubmits the rest.
     *
     * @return null when every row was written, else the first row refused ({@code gone}: a row to replace was gone)
     */
    default Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
        throw new UnsupportedOperationException("this store cannot write rows conditionally");
    }

    /**
     * One row by its keys (a point read, the service's cheapest request), with its Timestamp; null when the table
     * holds no row under them.
     */
    default Row read(String table, String partitionKey, String rowKey) {
        throw new UnsupportedOperationException("this store cannot read a row by its keys");
    }

    void createTableIfNotExists(String table);

    boolean tableExists(String table);

    /** Deletes one row, a mirror's; false when it was already gone (a replay's delete is no failure). */
    default boolean delete(String table, String partitionKey, String rowKey) {
        throw new UnsupportedOperationException("this store cannot delete rows");
    }

    /**
     * Deletes 1 to 100 rows of one partition in one transaction, each only if it still has the ETag it was read
     * with ({@code *}: whatever it has). The service applies all or none: when it refuses one, nothing is deleted
     * and the refusal names it. Core's {@code TableDeletes.ifUnchanged} resubmits the rest.
     *
     * @return null when every row was deleted, else the first row refused
     */
    default Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
        throw new UnsupportedOperationException("this store cannot delete rows");
    }

    /** A row to delete and the ETag it was read with (null: delete whatever it holds). */
    record Version(String rowKey, String etag) {
        /** The If-Match value: the ETag, or {@code *}. */
        public String ifMatch() {
            return etag == null ? "*" : etag;
        }
    }

    /**
     * The row of a batch the service refused: its index in the batch, and whether it was gone already (404) or
     * changed since read (412; an insert's: it exists, 409).
     */
    record Refusal(int index, boolean gone) {}

    /** Deletes a table; false when it was already gone. */
    default boolean deleteTable(String table) {
        throw new UnsupportedOperationException("this store cannot delete tables");
    }

    /** The names of the account's tables, in the service's order (a backup of all of an account's tables). */
    default List<String> listTables() {
        throw new UnsupportedOperationException("this store cannot list its tables");
    }
}
