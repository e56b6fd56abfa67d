package io.tablescan.runtime;

import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;

/** Sums what one transaction did for one scan into a single scan event. */
public final class ScanEventBuilder {
    private final String scanId;
    private ScanSpec startedSpec;
    private final int[] emitted = new int[3];
    private final int[] done = new int[3];
    private final int[] failed = new int[3];
    private final int[] skipped = new int[3];
    private final int[] retried = new int[3];
    private boolean cancelled;
    private long rowsRead;
    private long rowsWritten;
    private long requests;
    private long writeRequests;
    private long retries;
    private long throttles;
    private int maxDepth;
    private String firstError;

    public ScanEventBuilder(String scanId) {
        this.scanId = scanId;
    }

    public ScanEventBuilder started(ScanSpec spec) {
        this.startedSpec = spec;
        return this;
    }

    public ScanEventBuilder emitted(ItemKind kind) {
        emitted[kind.ordinal()]++;
        return this;
    }

    public ScanEventBuilder done(ItemKind kind, int depth, ItemHandler.Result result) {
        done[kind.ordinal()]++;
        maxDepth = Math.max(maxDepth, depth);
        rowsRead += result.rowsRead();
        rowsWritten += result.rowsWritten();
        requests += result.requests();
        if (kind == ItemKind.ENTITY_BATCH) { // the only kind that writes; the others read the source
            writeRequests += result.requests();
        }
        return this;
    }

    public ScanEventBuilder failed(ItemKind kind, String error) {
        failed[kind.ordinal()]++;
        if (firstError == null) {
            firstError = error;
        }
        return this;
    }

    /** An item of a cancelled scan, dropped unprocessed. */
    public ScanEventBuilder skipped(ItemKind kind) {
        skipped[kind.ordinal()]++;
        return this;
    }

    /** A failed item re-submitted: it is open again until it is done or fails again. */
    public ScanEventBuilder retried(ItemKind kind) {
        retried[kind.ordinal()]++;
        return this;
    }

    /** Retried table requests and throttling responses met while processing an item. */
    public ScanEventBuilder retries(long retried, long throttled) {
        retries += retried;
        throttles += throttled;
        return this;
    }

    public ScanEventBuilder cancelled() {
        cancelled = true;
        return this;
    }

    public ScanEvent build() {
        return new ScanEvent(scanId, System.currentTimeMillis(), startedSpec, counts(emitted), counts(done),
                counts(failed), rowsRead, rowsWritten, requests, maxDepth, firstError, counts(skipped),
                counts(retried), cancelled, retries, throttles, writeRequests);
    }

    private static ItemCounts counts(int[] c) {
        return new ItemCounts(c[0], c[1], c[2]);
    }
}
