package io.tablescan.copy;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.compare.RowMerge;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler.Result;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.status.Counters;
import io.tablescan.table.TableWrites;
import io.tablescan.table.WriteMode;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The writes to the destination table that are not plain upserts (those go through the table sink): a copy's
 * {@code --write-mode} merge, insert or skip-existing, and a mirror's writes conditional on the ETags its comparison
 * read. Each row counts once, in the transaction that commits its batch: written, or (not written) existing,
 * skipped or a conflict.
 */
final class TableWriteModes {
    private TableWriteModes() {}

    /** Whether rows of this scan are written here rather than by its sink: null when by the sink. */
    static WriteMode mode(ScanSpec spec, List<String> writeEtags) {
        if (spec.getDestination() == null || spec.getSink() != null) {
            return null; // rows to a topic, files or a plugin: the sink writes them
        }
        WriteMode mode = WriteMode.of(spec.getJob() == null ? null : spec.getJob().getOptions());
        return mode == WriteMode.REPLACE && writeEtags.isEmpty() ? null : mode;
    }

    /** Writes rows of one partition to the scan's destination as {@code mode} (or conditionally, a mirror's). */
    static Result write(WorkerSettings settings, ScanSpec spec, WriteMode mode, List<Row> rows, List<String> writeEtags,
            ItemContext context) {
        TableStore store = settings.store(spec.getDestination().getAccount(), context);
        String table = spec.getDestination().getTable();
        String partitionKey = rows.getFirst().partitionKey();
        if (mode == WriteMode.MERGE && writeEtags.isEmpty()) {
            int requests = createdOnce(store, table, () -> store.merge(table, partitionKey, rows));
            return new Result(List.of(), 0, rows.size(), requests);
        }
        List<String> etags = writeEtags.isEmpty() ? Collections.nCopies(rows.size(), null) : writeEtags;
        TableWrites.Result[] result = new TableWrites.Result[1];
        int creates = createdOnce(store, table, () -> result[0] = TableWrites.ifUnchanged(store, table, partitionKey,
                rows, etags, (write, held) -> RowMerge.compare(write.properties(), held.properties()).isEmpty()));
        long written = result[0].count(TableWrites.Outcome.WRITTEN);
        long refused = result[0].count(TableWrites.Outcome.REFUSED);
        String counter = !writeEtags.isEmpty() ? Counters.CONFLICTS : mode == WriteMode.INSERT ? Counters.EXISTING : Counters.SKIPPED;
        return new Result(List.of(), 0, written, result[0].requests() + creates - 1, 0,
                refused == 0 ? Map.of() : Map.of(counter, refused));
    }

    /**
     * Runs a write, creating the table first if the service said it is missing (its TableNotFound or ResourceNotFound) and running it again, as the table sink
     * does; returns the requests beyond the write's own (0 or 2), plus one.
     */
    private static int createdOnce(TableStore store, String table, Runnable write) {
        try {
            write.run();
            return 1;
        } catch (TableStoreException e) {
            if (!AzureTableStore.notFound(e)) { // a 404 without the service's code is a wrong path or a proxy
                throw e;
            }
            store.createTableIfNotExists(table); // the destination is created on first write
            write.run();
            return 3;
        }
    }
}
