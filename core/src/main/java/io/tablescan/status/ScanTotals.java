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

    /** Verify and mirror: source rows the destination lacks (exact once the scan is complete). */
    public long rowsMissing() {
        return status == null ? 0 : status.getRowsMissing();
    }

    /** Verify and mirror: rows in both tables whose properties differ. */
    public long rowsDiffering() {
        return status == null ? 0 : status.getRowsDiffering();
    }

    /** Verify and mirror: destination rows the source lacks. */
    public long rowsExtra() {
        return status == null ? 0 : status.getRowsExtra();
    }

    /** Mirror: destination rows deleted because the source lacks them. */
    public long rowsDeleted() {
        return status == null ? 0 : status.getRowsDeleted();
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

    /** Start of the scan (its seeding) to its end, or to its latest event while running. */
    public long elapsedMillis() {
        if (!started()) {
            return 0;
        }
        long end = status.getEndMillis() != null ? status.getEndMillis() : status.getLastEventMillis();
        return Math.max(0, end - status.getStartMillis());
    }
}
