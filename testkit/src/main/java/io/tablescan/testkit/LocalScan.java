package io.tablescan.testkit;

import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.PartitionCount;
import io.tablescan.scanner.PartitionStep;
import io.tablescan.scanner.PrefixStep;
import io.tablescan.scanner.ScanCosts;
import io.tablescan.scanner.SerialStep;
import io.tablescan.scanner.StepResult;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * Runs a whole scan in one thread, item by item, the way the workers would: depth first, or in random order
 * with some items delivered twice (as Kafka may after a crash). A test helper.
 */
public final class LocalScan {
    public enum Strategy { PREFIX, SERIAL }

    /** How items are delivered: depth first, or in random order with a chance of duplicating each one. */
    public record Delivery(Random order, double duplicates) {
        public static final Delivery DEPTH_FIRST = new Delivery(null, 0);
    }

    /**
     * @param rows every row read, duplicates included
     * @param originalRows rows read by items that no duplicate delivery led to: must be the range exactly once
     * @param continuedPages pages with rows and a continuation (S in {@link ScanCosts})
     * @param emptyContinuedPages empty pages with a continuation (E)
     * @param originalPartitions partitions the original deliveries counted ({@link PartitionCount}): as the
     *     ledger's sum of committed events, where a duplicate delivery's transaction never commits
     */
    public record Result(List<Row> rows, List<Row> originalRows, int requests, int items, int maxDepth,
            int maxPagesPerItem, long continuedPages, long emptyContinuedPages, long originalPartitions) {}

    private record Item(ScanQuery query, int depth, boolean duplicate, String continued) {}

    public static Result run(TableStore store, String table, KeyRange range, Strategy strategy, int pageSize,
            int pageBudget, Random order) {
        return run(store, table, range, strategy, new QueryOptions(pageSize, null, null), pageBudget,
                order == null ? Delivery.DEPTH_FIRST : new Delivery(order, 0));
    }

    public static Result run(TableStore store, String table, KeyRange range, Strategy strategy, QueryOptions options,
            int pageBudget, Delivery delivery) {
        long[] pages = new long[2];
        PageReader reader = (query, from) -> {
            Page page = store.query(table, query, options, from);
            if (page.next() != null) {
                pages[page.rows().isEmpty() ? 1 : 0]++;
            }
            return page;
        };
        Deque<Item> stack = new ArrayDeque<>();
        List<Item> pending = new ArrayList<>();
        add(new Item(range, 0, false, null), stack, pending, delivery);
        List<Row> rows = new ArrayList<>();
        List<Row> originalRows = new ArrayList<>();
        int requests = 0;
        int items = 0;
        int maxDepth = 0;
        int maxPages = 0;
        long partitions = 0;
        while (!stack.isEmpty() || !pending.isEmpty()) {
            Item item = delivery.order() == null ? stack.pop() : pending.remove(delivery.order().nextInt(pending.size()));
            items++;
            maxDepth = Math.max(maxDepth, item.depth());
            StepResult result = switch (item.query()) {
                case KeyRange r -> strategy == Strategy.SERIAL
                        ? SerialStep.run(r, pageBudget, reader) : PrefixStep.run(r, pageBudget, reader);
                case PartitionRange p -> PartitionStep.run(p, pageBudget, reader);
            };
            rows.addAll(result.rows());
            if (!item.duplicate()) {
                originalRows.addAll(result.rows());
                partitions += PartitionCount.counted(item.continued(), result.rows());
            }
            requests += result.requests();
            if (requests > 10 * ScanCosts.maxRequests(pages[0], pages[1], 1024)) {
                throw new IllegalStateException("runaway scan: " + requests + " requests for " + pages[0]
                        + " pages with rows and a continuation, at " + item);
            }
            maxPages = Math.max(maxPages, result.requests());
            for (ScanQuery handoff : result.handoffs()) {
                add(new Item(handoff, item.depth() + 1, item.duplicate(),
                        PartitionCount.continuedBy(handoff, item.continued(), result.rows())), stack, pending, delivery);
            }
        }
        return new Result(rows, originalRows, requests, items, maxDepth, maxPages, pages[0], pages[1], partitions);
    }

    private static void add(Item item, Deque<Item> stack, List<Item> pending, Delivery delivery) {
        if (delivery.order() == null) {
            stack.push(item);
            return;
        }
        pending.add(item);
        // Only original deliveries are duplicated: a duplicate's whole subtree runs again anyway, and duplicating
        // inside it too would grow without bound along a long chain.
        if (!item.duplicate() && delivery.duplicates() > 0 && delivery.order().nextDouble() < delivery.duplicates()) {
            pending.add(new Item(item.query(), item.depth(), true, item.continued())); // delivered again, after a crash say
        }
    }

    private LocalScan() {}
}
