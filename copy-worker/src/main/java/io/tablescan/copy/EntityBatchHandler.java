package io.tablescan.copy;

import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityBatch;
import io.tablescan.sink.Rows;
import io.tablescan.sink.SinkRefs;
import io.tablescan.sink.SinkRegistry;
import io.tablescan.spi.Row;
import io.tablescan.spi.SinkRef;
import java.util.List;

/**
 * Writes one entity batch to the sink its scan names (the table sink on the scan's destination when it names
 * none). The registry keeps one sink per reference and retries its transient failures; anything thrown here
 * parks the batch. The rows written are the batch's rows: a sink writes all of them or fails.
 */
public final class EntityBatchHandler implements ItemHandler<EntityBatch> {
    private final SinkRegistry sinks;

    public EntityBatchHandler(WorkerSettings settings) {
        this(SinkRegistry.load(settings.plugins(), ref -> new WorkerSinkContext(ref, settings), settings.retry(),
                new TopicSink.Provider(settings.kafka())));
    }

    public EntityBatchHandler(SinkRegistry sinks) {
        this.sinks = sinks;
    }

    @Override
    public Class<EntityBatch> type() {
        return EntityBatch.class;
    }

    @Override
    public Result handle(EntityBatch batch, ItemContext context) {
        SinkRef ref = SinkRefs.of(batch.getSpec());
        if (ref == null) {
            return new Result(List.of(), 0, 0, 0); // a scan without a sink: other consumers use the batches
        }
        List<Row> rows = Rows.of(batch);
        int requests = sinks.sink(ref).write(rows, context, context);
        return new Result(List.of(), 0, rows.size(), requests);
    }

    @Override
    public void close() {
        sinks.close();
    }
}
