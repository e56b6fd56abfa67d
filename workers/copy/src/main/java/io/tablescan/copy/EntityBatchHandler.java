package io.tablescan.copy;

import io.tablescan.items.WorkItemValidator;
import io.tablescan.job.Jobs;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.Rows;
import io.tablescan.sink.SinkRefs;
import io.tablescan.sink.SinkRegistry;
import io.tablescan.spi.Row;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;
import io.tablescan.status.Counters;
import io.tablescan.table.TableDeletes;
import io.tablescan.table.WriteMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes one entity batch to the sink its scan names (the table sink on the scan's destination when it names
 * none). The registry keeps one sink per reference and retries its transient failures; anything thrown here
 * parks the batch. The rows written are the batch's rows: a sink writes all of them or fails. An entity page's
 * parts are written the same way, by {@link EntityRecordHandler}.
 */
public final class EntityBatchHandler implements ItemHandler<EntityBatch> {
    private final SinkRegistry sinks;
    private final WorkerSettings settings; // for a mirror's deletes; null in tests of sinks alone

    public EntityBatchHandler(WorkerSettings settings) {
        this(SinkRegistry.load(settings.plugins(), ref -> new WorkerSinkContext(ref, settings), settings.retry(),
                new TopicSink.Provider(settings.kafka())), settings);
    }

    public EntityBatchHandler(SinkRegistry sinks) {
        this(sinks, null);
    }

    EntityBatchHandler(SinkRegistry sinks, WorkerSettings settings) {
        this.sinks = sinks;
        this.settings = settings;
    }

    @Override
    public Class<EntityBatch> type() {
        return EntityBatch.class;
    }

    @Override
    public Result handle(EntityBatch batch, ItemContext context) {
        return write(batch.getSpec(), batch.getPartitionKey(), batch.getEntities(), batch.getDeletes(),
                batch.getDeleteEtags(), batch.getWriteEtags() == null ? List.of() : batch.getWriteEtags(), context);
    }

    /**
     * Writes the rows of one partition (or deletes its RowKeys, for a mirror or a delete job): one batch, or one part
     * of a page. Rows with {@code writeEtags} (a mirror's), and rows of a copy with a write mode other than replace,
     * are written to the destination table here ({@link TableWriteModes}); the rest by the scan's sink.
     */
    Result write(ScanSpec spec, String partitionKey, List<Entity> entities, List<String> deletes, List<String> etags,
            List<String> writeEtags, ItemContext context) {
        if (!deletes.isEmpty()) {
            return delete(spec, partitionKey, deletes, etags, context);
        }
        WriteMode mode = settings == null || entities.isEmpty() ? null : TableWriteModes.mode(spec, writeEtags);
        if (mode != null) {
            return TableWriteModes.write(settings, spec, mode, Rows.of(partitionKey, entities), writeEtags, context);
        }
        SinkRef ref = SinkRefs.of(spec);
        if (ref == null) {
            return new Result(List.of(), 0, 0, 0); // a scan without a sink: other consumers use the batches
        }
        List<Row> rows = Rows.of(partitionKey, entities);
        // the table sink's store, and a plugin's, are outside the item's capped store: its write cap is kept here
        int requests = settings == null ? sinks.sink(ref).write(rows, context, context)
                : settings.withinWriteCap(context, rows.size(), () -> sinks.sink(ref).write(rows, context, context));
        return new Result(List.of(), 0, rows.size(), requests);
    }

    /**
     * Deletes of the job's table (a mirror's destination, a delete job's source) in transactions of up to 100, each
     * row only if it still has the ETag it was read with: a row already gone (a replay's) counts as deleted, one
     * changed since read is kept and counted as skipped; each row counts once, in the transaction that commits this
     * batch.
     */
    private Result delete(ScanSpec spec, String partitionKey, List<String> deletes, List<String> etags,
            ItemContext context) {
        TableRef table = Jobs.of(spec).deletesFrom(spec);
        if (table == null) {
            throw new WorkItemValidator.InvalidItemException("a delete batch of a " + Jobs.of(spec).name()
                    + ", which deletes nothing");
        }
        TableStore store = settings.store(table.getAccount(), context);
        List<TableStore.Version> rows = new ArrayList<>(deletes.size());
        for (int i = 0; i < deletes.size(); i++) {
            rows.add(new TableStore.Version(deletes.get(i), etags.isEmpty() ? null : etags.get(i)));
        }
        TableDeletes.Result result = TableDeletes.ifUnchanged(store, table.getTable(), partitionKey, rows);
        long deleted = result.count(TableDeletes.Outcome.DELETED) + result.count(TableDeletes.Outcome.GONE);
        long skipped = result.count(TableDeletes.Outcome.CHANGED);
        return new Result(List.of(), 0, 0, result.requests(), 0, skipped == 0 ? Map.of(Counters.DELETED, deleted)
                : Map.of(Counters.DELETED, deleted, Counters.SKIPPED, skipped));
    }

    /** Every sink written to since the last commit point makes its rows durable (see {@code RowSink#flush}). */
    @Override
    public void flush() {
        sinks.flush();
    }

    @Override
    public void close() {
        sinks.close();
    }
}
