package io.tablescan.table;

import io.tablescan.scanner.Continuation;
import io.tablescan.scanner.Page;
import io.tablescan.scanner.ScanQuery;
import io.tablescan.scanner.TableRow;
import java.util.List;

/**
 * The tables of one storage account. Every call is one service request; failures are
 * {@link TableStoreException}s that say whether a retry can help.
 */
public interface TableStore {
    /** One page of {@code query}, from its start or from {@code from}. */
    Page query(String table, ScanQuery query, QueryOptions options, Continuation from);

    /** Writes rows of one partition (at most 100, at most 4 MiB) atomically, replacing existing rows. */
    void upsert(String table, String partitionKey, List<TableRow> rows);

    void createTableIfNotExists(String table);

    boolean tableExists(String table);
}
