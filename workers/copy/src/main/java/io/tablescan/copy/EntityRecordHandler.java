package io.tablescan.copy;

import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.items.ItemIds;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PagePart;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * in-flight count of writes going however big its pages are. The page is done when every part is written. When
 * a part fails (after its sink's retries), the parts written count with the page, and the rest go on as a page of
 * their own (retried, then parked if it fails again), so the counts are of rows the destination holds; a page
 * of which no part was written fails whole. A replay writes parts again with upsert-replace; rows count once,
 * when the page that wrote them commits.
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
        long rows = 0;
        Map<String, Long> counters = new HashMap<>();
        int requests = 0;
        List<PagePart> rest = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Result result = results[i];
            if (result == null) { // failed, or not tried after its writer's failure
                rest.add(parts.get(i));
                continue;
            }
            rows += result.rowsWritten();
            requests += result.requests();
            result.counters().forEach((name, n) -> counters.merge(name, n, Long::sum));
        }
        if (failure != null && rest.size() == parts.size()) {
            throw failure; // nothing written: the page fails as a batch's own failure would
        }
        // Parts written count now, in this page's transaction; the others go on as a page of their own, which is
        // retried, and parked if it fails again, so every row counts once, when its own part's page commits.
        List<SpecificRecord> emitted = failure == null ? List.of() : List.of(remainder(page, rest));
        return new Result(emitted, 0, rows, requests, 0, counters);
    }

    /** The parts of {@code page} not written, as a page of their own; its id follows from the page's and theirs. */
    static EntityPage remainder(EntityPage page, List<PagePart> rest) {
        PagePart first = rest.getFirst();
        String firstRow = first.getEntities().isEmpty() ? String.join(",", first.getDeletes())
                : first.getEntities().getFirst().getRowKey();
        return new EntityPage(ItemIds.of(page.getSpec().getScanId(), "page-rest", page.getItemId(),
                first.getPartitionKey(), firstRow, String.valueOf(rest.size())), page.getSpec(), rest);
    }

    private Result part(EntityPage page, PagePart part, ItemContext context) {
        try {
            writeSlots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        try {
            return batches.write(page.getSpec(), part.getPartitionKey(), part.getEntities(), part.getDeletes(),
                    part.getDeleteEtags(), part.getWriteEtags() == null ? List.of() : part.getWriteEtags(), context);
        } finally {
            writeSlots.release();
        }
    }

    @Override
    public void flush() {
        batches.flush();
    }

    @Override
    public void close() {
        batches.close();
    }
}
