package io.tablescan.copy;

import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PagePart;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.apache.avro.specific.SpecificRecord;

/**
 * The copy-worker's handler of the entity topic's records: an entity page (today's) or an entity batch (0.1.0's,
 * and an import's). A page's parts are its table transactions, written at once, each on a virtual thread that
 * holds one of the worker's write slots while it writes, so the worker keeps at most its in-flight count of
 * writes going however big its pages are. The page is done when every part is written; a part that fails (after
 * its sink's retries) fails the page, which is parked or replayed whole: the parts already written are written
 * again with upsert-replace, and the rows count once, when the page commits.
 */
public final class EntityRecordHandler implements ItemHandler<SpecificRecord> {
    private final EntityBatchHandler batches;
    private final Semaphore writeSlots;

    public EntityRecordHandler(WorkerSettings settings) {
        this(new EntityBatchHandler(settings), settings.maxInFlight());
    }

    EntityRecordHandler(EntityBatchHandler batches, int writeSlots) {
        this.batches = batches;
        this.writeSlots = new Semaphore(writeSlots, true); // fair: the oldest page's parts first
    }

    @Override
    public Class<SpecificRecord> type() {
        return SpecificRecord.class;
    }

    @Override
    public Result handle(SpecificRecord item, ItemContext context) {
        return switch (item) {
            case EntityPage page -> page(page, context);
            case EntityBatch batch -> batches.handle(batch, context);
            default -> throw new IllegalArgumentException("expected EntityPage or EntityBatch, got "
                    + item.getSchema().getName());
        };
    }

    private Result page(EntityPage page, ItemContext context) {
        List<Future<Result>> written = new ArrayList<>(page.getParts().size());
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (PagePart part : page.getParts()) {
                written.add(threads.submit(() -> part(page, part, context)));
            }
        } // waits for every part: none is left writing once the page is done or failed
        long rows = 0;
        long deleted = 0;
        int requests = 0;
        RuntimeException failure = null;
        for (Future<Result> part : written) {
            try {
                Result result = part.get();
                rows += result.rowsWritten();
                requests += result.requests();
                deleted += result.compared().deleted();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                failure = failure != null ? failure : e.getCause() instanceof RuntimeException r ? r
                        : new IllegalStateException(e.getCause());
            } catch (InterruptedException | CancellationException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }
        if (failure != null) {
            throw failure; // the first failed part's, as a batch's own failure would be
        }
        return new Result(List.of(), 0, rows, requests, 0, new Compared(0, 0, 0, deleted));
    }

    private Result part(EntityPage page, PagePart part, ItemContext context) throws InterruptedException {
        writeSlots.acquire();
        try {
            return batches.write(page.getSpec(), part.getPartitionKey(), part.getEntities(), part.getDeletes(), context);
        } finally {
            writeSlots.release();
        }
    }

    @Override
    public void close() {
        batches.close();
    }
}
