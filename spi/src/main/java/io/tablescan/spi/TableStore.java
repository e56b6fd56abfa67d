package io.tablescan.spi;

import java.util.List;

/**
 * The tables of one storage account: a {@link RowSource} the scanner reads, plus the writes and table admin
 * of the table sink. Every call is one service request; failures are {@link TableStoreException}s that say
 * whether a retry can help.
 */
public interface TableStore extends RowSource {
    /** Writes rows of one partition (at most 100, at most 4 MiB) atomically, replacing existing rows. */
    void upsert(String table, String partitionKey, List<Row> rows);

    void createTableIfNotExists(String table);

    boolean tableExists(String table);

    /** Deletes one row, a mirror's; false when it was already gone (a replay's delete is no failure). */
    default boolean delete(String table, String partitionKey, String rowKey) {
        throw new UnsupportedOperationException("this store cannot delete rows");
    }

    /** Deletes a table; false when it was already gone. */
    default boolean deleteTable(String table) {
        throw new UnsupportedOperationException("this store cannot delete tables");
    }
}
