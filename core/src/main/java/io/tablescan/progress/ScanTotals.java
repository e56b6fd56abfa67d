package io.tablescan.progress;

import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A scan's committed events summed. Each event was committed with the items it emitted and the offsets of
 * the items it consumed, so the sums are exact: the scan is complete exactly when every emitted item is done
 * or failed.
 */
public final class ScanTotals {
    private final String scanId;
    private ScanSpec spec;
    private long emitted;
    private long done;
    private long failed;
    private final long[] doneByKind = new long[3];
    private long rowsRead;
    private long rowsWritten;
    private long requests;
    private int maxDepth;
    private long firstEventMillis;
    private long lastEventMillis;
    private final List<String> errors = new ArrayList<>();

    public ScanTotals(String scanId) {
        this.scanId = scanId;
    }

    public void add(ScanEvent event) {
        if (event.getSpec() != null) {
            spec = event.getSpec();
        }
        add(event.getDone(), doneByKind);
        emitted += sum(event.getEmitted());
        done += sum(event.getDone());
        failed += sum(event.getFailed());
        rowsRead += event.getRowsRead();
        rowsWritten += event.getRowsWritten();
        requests += event.getRequests();
        maxDepth = Math.max(maxDepth, event.getMaxDepth());
        if (firstEventMillis == 0) {
            firstEventMillis = event.getTimeMillis();
        }
        lastEventMillis = Math.max(lastEventMillis, event.getTimeMillis());
        if (event.getFirstError() != null && errors.size() < 5) {
            errors.add(event.getFirstError());
        }
    }

    public boolean started() {
        return spec != null;
    }

    public boolean complete() {
        return started() && done + failed == emitted;
    }

    public String scanId() {
        return scanId;
    }

    public ScanSpec spec() {
        return spec;
    }

    public long itemsEmitted() {
        return emitted;
    }

    public long itemsDone() {
        return done;
    }

    public long itemsFailed() {
        return failed;
    }

    public long openItems() {
        return emitted - done - failed;
    }

    /** Items done of kind 0 = prefix queries, 1 = partition queries, 2 = entity batches. */
    public long done(int kind) {
        return doneByKind[kind];
    }

    public long rowsRead() {
        return rowsRead;
    }

    public long rowsWritten() {
        return rowsWritten;
    }

    public long requests() {
        return requests;
    }

    public int maxDepth() {
        return maxDepth;
    }

    public List<String> errors() {
        return List.copyOf(errors);
    }

    /** Start of the scan (its seeding) to its latest event. */
    public long elapsedMillis() {
        return spec == null ? 0 : Math.max(0, lastEventMillis - spec.getCreatedAtMillis());
    }

    private static long sum(ItemCounts c) {
        return (long) c.getPrefixQueries() + c.getPartitionQueries() + c.getEntityBatches();
    }

    private static void add(ItemCounts c, long[] into) {
        into[0] += c.getPrefixQueries();
        into[1] += c.getPartitionQueries();
        into[2] += c.getEntityBatches();
    }
}
