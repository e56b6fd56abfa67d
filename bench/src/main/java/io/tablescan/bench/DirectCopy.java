package io.tablescan.bench;

import io.tablescan.items.EntityBatcher;
import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The table service's ceiling in a benchmark: a copy with no Kafka and perfect split points (the bench knows
 * every PartitionKey), reading key ranges in parallel and writing batches of one partition, with the same
 * number of requests in flight as the workers.
 */
final class DirectCopy {
    private DirectCopy() {}

    /** Copies every row; returns the number of requests made. */
    static long copy(TableStore source, String sourceTable, TableStore destination, String destinationTable,
            List<String> sortedPartitionKeys, int ranges, int inFlight) throws Exception {
        destination.createTableIfNotExists(destinationTable);
        AtomicLong requests = new AtomicLong();
        Semaphore permits = new Semaphore(inFlight);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> readers = new ArrayList<>();
            int step = Math.max(1, sortedPartitionKeys.size() / ranges);
            for (int i = 0; i < sortedPartitionKeys.size(); i += step) {
                String lower = i == 0 ? null : sortedPartitionKeys.get(i);
                String upper = i + step >= sortedPartitionKeys.size() ? null : sortedPartitionKeys.get(i + step);
                KeyRange range = new KeyRange(lower == null ? null : new Bound(lower, true), upper);
                readers.add(executor.submit(() -> {
                    readRange(source, sourceTable, range, destination, destinationTable, executor, permits, requests);
                    return null;
                }));
            }
            for (Future<?> reader : readers) {
                reader.get();
            }
        } // closing waits for every write
        return requests.get();
    }

    private static void readRange(TableStore source, String sourceTable, KeyRange range, TableStore destination,
            String destinationTable, ExecutorService executor, Semaphore permits, AtomicLong requests)
            throws InterruptedException {
        Page page = null;
        do {
            permits.acquire();
            try {
                page = source.query(sourceTable, range, new QueryOptions(1000, null, null), page == null ? null : page.next());
            } finally {
                permits.release();
            }
            requests.incrementAndGet();
            for (List<Row> batch : EntityBatcher.rowBatches(page.rows())) {
                permits.acquire();
                executor.submit(() -> {
                    try {
                        destination.upsert(destinationTable, batch.get(0).partitionKey(), batch);
                        requests.incrementAndGet();
                    } finally {
                        permits.release();
                    }
                });
            }
        } while (page.next() != null);
    }
}
