package io.tablescan.scanner;

import io.tablescan.table.QueryOptions;
import io.tablescan.table.TableStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/** Runs a whole scan in one thread, item by item, the way the workers would: a test helper. */
public final class LocalScan {
    public enum Strategy { PREFIX, SERIAL }

    public record Result(List<TableRow> rows, int requests, int items, int maxDepth) {}

    private record Item(ScanQuery query, int depth) {}

    public static Result run(TableStore store, String table, KeyRange range, Strategy strategy, int pageSize,
            int pageBudget, Random order) {
        QueryOptions options = new QueryOptions(pageSize, null, null);
        PageReader reader = (query, from) -> store.query(table, query, options, from);
        Deque<Item> queue = new ArrayDeque<>();
        queue.add(new Item(range, 0));
        List<TableRow> rows = new ArrayList<>();
        int requests = 0;
        int items = 0;
        int maxDepth = 0;
        List<Item> pending = new ArrayList<>();
        while (!queue.isEmpty() || !pending.isEmpty()) {
            if (order != null && !pending.isEmpty()) {
                // Random processing order: any pending item may run next.
                queue.add(pending.remove(order.nextInt(pending.size())));
            }
            Item item = queue.poll();
            if (item == null) {
                continue;
            }
            items++;
            maxDepth = Math.max(maxDepth, item.depth());
            StepResult result = switch (item.query()) {
                case KeyRange r -> strategy == Strategy.SERIAL
                        ? SerialStep.run(r, pageBudget, reader) : PrefixStep.run(r, pageBudget, reader);
                case PartitionRange p -> PartitionStep.run(p, pageBudget, reader);
            };
            rows.addAll(result.rows());
            requests += result.requests();
            for (ScanQuery handoff : result.handoffs()) {
                Item child = new Item(handoff, item.depth() + 1);
                if (order == null) {
                    queue.push(child);
                } else {
                    pending.add(child);
                }
            }
        }
        return new Result(rows, requests, items, maxDepth);
    }

    private LocalScan() {}
}
