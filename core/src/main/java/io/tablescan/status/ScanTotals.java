package io.tablescan.status;

import io.tablescan.runtime.ItemKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import java.util.List;

/** A read-only view of one scan's status as the ledger recorded it, for people and tests. */
public final class ScanTotals {
    private final String scanId;
    private final ScanStatus status;

    public ScanTotals(String scanId, ScanStatus status) {
        this.scanId = scanId;
        this.status = status;
    }

    /** The ledger has a record of this scan. */
    public boolean started() {
        return status != null && status.getSpec() != null;
    }

    /** Every emitted item is done, failed or skipped. */
    public boolean complete() {
        return started() && openItems() == 0;
    }

    /** Running until complete; a cancelled scan is ended even while its last items drain. */
    public boolean ended() {
        return started() && status.getState() != ScanState.RUNNING;
    }

    public ScanState state() {
        return status == null ? ScanState.RUNNING : status.getState();
    }

    public ScanStatus status() {
        return status;
    }

    public String scanId() {
        return scanId;
    }

    public ScanSpec spec() {
        return status == null ? null : status.getSpec();
    }

    public long itemsEmitted() {
        return status == null ? 0 : ScanFold.sum(status.getEmitted());
    }

    public long itemsDone() {
        return status == null ? 0 : ScanFold.sum(status.getDone());
    }

    public long itemsFailed() {
        return status == null ? 0 : ScanFold.sum(status.getFailed());
    }

    public long itemsSkipped() {
        return status == null ? 0 : ScanFold.sum(status.getSkipped());
    }

    public long itemsRetried() {
        return status == null ? 0 : status.getRetriedItems();
    }

    public long openItems() {
        return status == null ? 0 : ScanFold.open(status);
    }

    /** Items of this kind done. */
    public long done(ItemKind kind) {
        return status == null ? 0 : kind.count(status.getDone());
    }

    /** Items of this kind that failed for good (parked in the dead-letter topic; a retried one counts no more). */
    public long failed(ItemKind kind) {
        return status == null ? 0 : kind.count(status.getFailed());
    }

    public long rowsRead() {
        return status == null ? 0 : status.getRowsRead();
    }

    public long rowsWritten() {
        return status == null ? 0 : status.getRowsWritten();
    }

    /** Partitions with selected rows read: exact once the scan is complete. */
    public long partitions() {
        return status == null ? 0 : status.getPartitions();
    }

    /**
     * The job's counter of this name (see {@code Job#counters}), 0 when it counted none; exact once the scan is
     * complete. A status of an earlier version holds four of them in fields of their own, added here.
     */
    public long counter(String name) {
        if (status == null) {
            return 0;
        }
        long legacy = switch (name) {
            case Counters.MISSING -> status.getRowsMissing();
            case Counters.DIFFERENT -> status.getRowsDiffering();
            case Counters.EXTRA -> status.getRowsExtra();
            case Counters.DELETED -> status.getRowsDeleted();
            default -> 0;
        };
        return status.getCounters().getOrDefault(name, 0L) + legacy;
    }

    public long rowsCopied() {
        return status == null ? 0 : ScanFold.rowsCopied(status);
    }

    /** Table requests of every kind: reads of the source and writes to the destination. */
    public long requests() {
        return status == null ? 0 : status.getRequests();
    }

    /** Requests that read the source (query pages). */
    public long readRequests() {
        return requests() - writeRequests();
    }

    /** Requests that wrote to the destination (one per entity batch, plus creating a missing table). */
    public long writeRequests() {
        return status == null ? 0 : status.getWriteRequests();
    }

    public long retries() {
        return status == null ? 0 : status.getRetries();
    }

    public long throttles() {
        return status == null ? 0 : status.getThrottles();
    }

    public int maxDepth() {
        return status == null ? 0 : status.getMaxDepth();
    }

    /** Rows per second: recent while running, the scan's average once ended. */
    public double rowsPerSecond() {
        return status == null ? 0 : status.getRowsPerSecond();
    }

    public List<String> errors() {
        return status == null ? List.of() : List.copyOf(status.getErrors());
    }

    /**
     * Start of the scan (its seeding) to its end, or to its latest event while running, without the time a stopped
     * local job waited for its rerun.
     */
    public long elapsedMillis() {
        if (!started()) {
            return 0;
        }
        long end = status.getEndMillis() != null ? status.getEndMillis() : status.getLastEventMillis();
        return ScanFold.runningMillis(status, end);
    }

    /** The running time up to {@code nowMillis} (see {@link #elapsedMillis}), for a scan still running. */
    public long runningMillis(long nowMillis) {
        return started() ? ScanFold.runningMillis(status, nowMillis) : 0;
    }
}
