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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;

/**
 * The copy-worker's handler of the entity topic's records: an entity page (today's) or an entity batch (0.1.0's,
 * and an import's). A page's parts are its table transactions, written at once by up to as many virtual threads
 * as the worker has write slots, each part holding one slot while it is written, so the worker keeps at most its
 * in-flight count of writes going however big its pages are. The page is done when every part is written; a part that fails (after
 * its sink's retries) fails the page, which is parked or replayed whole: the parts already written are written
 * again with upsert-replace, and the rows count once, when the page commits.
 */
public final class EntityRecordHandler implements ItemHandler<SpecificRecord> {
    private final EntityBatchHandler batches;
    private final Semaphore writeSlots;
    private final int slots;

    public EntityRecordHandler(WorkerSettings settings) {
        this(new EntityBatchHandler(settings), settings.maxInFlight());
    }

    EntityRecordHandler(EntityBatchHandler batches, int writeSlots) {
        this.batches = batches;
        this.writeSlots = new Semaphore(writeSlots, true); // fair: the oldest page's parts first
        this.slots = writeSlots;
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
        List<PagePart> parts = page.getParts();
        Result[] results = new Result[parts.size()];
        AtomicInteger next = new AtomicInteger();
        // As many writers as parts could use slots, each taking the next part: not a parked thread per part.
        int writers = Math.min(parts.size(), slots);
        List<Future<?>> written = new ArrayList<>(writers);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < writers; i++) {
                written.add(threads.submit(() -> {
                    for (int part; (part = next.getAndIncrement()) < parts.size(); ) {
                        results[part] = part(page, parts.get(part), context);
                    }
                    return null;
                }));
            }
        } // waits for every writer: none is left writing once the page is done or failed
        RuntimeException failure = null;
        for (Future<?> writer : written) {
            try {
                writer.get();
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
            throw failure; // a failed part's, as a batch's own failure would be; its writer wrote no more parts
        }
        long rows = 0;
        long deleted = 0;
        int requests = 0;
        for (Result result : results) {
            rows += result.rowsWritten();
            requests += result.requests();
            deleted += result.compared().deleted();
        }
        return new Result(List.of(), 0, rows, requests, 0, new Compared(0, 0, 0, deleted));
    }

    private Result part(EntityPage page, PagePart part, ItemContext context) {
        try {
            writeSlots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
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
