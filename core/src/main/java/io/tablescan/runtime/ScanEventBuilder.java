package io.tablescan.runtime;

import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/** Sums what one transaction did for one scan into a single scan event. */
public final class ScanEventBuilder {
    /** The counter of {@link #resumed()} (io.tablescan.status.Counters.RESUMED, which depends on this package). */
    public static final String RESUMED = "resumed";
    private final String scanId;
    private ScanSpec startedSpec;
    private final Map<ItemKind, Integer> emitted = new EnumMap<>(ItemKind.class);
    private final Map<ItemKind, Integer> done = new EnumMap<>(ItemKind.class);
    private final Map<ItemKind, Integer> failed = new EnumMap<>(ItemKind.class);
    private final Map<ItemKind, Integer> skipped = new EnumMap<>(ItemKind.class);
    private final Map<ItemKind, Integer> retried = new EnumMap<>(ItemKind.class);
    private boolean cancelled;
    private long rowsRead;
    private long rowsWritten;
    private long partitions;
    private long requests;
    private long writeRequests;
    private long retries;
    private long throttles;
    private int maxDepth;
    private final Map<String, Long> counters = new HashMap<>();
    private String firstError;

    public ScanEventBuilder(String scanId) {
        this.scanId = scanId;
    }

    public ScanEventBuilder started(ScanSpec spec) {
        this.startedSpec = spec;
        return this;
    }

    public ScanEventBuilder emitted(ItemKind kind) {
        emitted.merge(kind, 1, Integer::sum);
        return this;
    }

    public ScanEventBuilder done(ItemKind kind, int depth, ItemHandler.Result result) {
        done.merge(kind, 1, Integer::sum);
        maxDepth = Math.max(maxDepth, depth);
        rowsRead += result.rowsRead();
        rowsWritten += result.rowsWritten();
        partitions += result.partitions();
        result.counters().forEach((name, n) -> {
            if (n != 0) {
                counters.merge(name, n, Long::sum);
            }
        });
        requests += result.requests();
        if (kind == ItemKind.ENTITY_BATCH) { // the only kind that writes; the others read the source
            writeRequests += result.requests();
        }
        return this;
    }

    public ScanEventBuilder failed(ItemKind kind, String error) {
        failed.merge(kind, 1, Integer::sum);
        if (firstError == null) {
            firstError = error;
        }
        return this;
    }

    /** An item of a cancelled scan, dropped unprocessed. */
    public ScanEventBuilder skipped(ItemKind kind) {
        skipped.merge(kind, 1, Integer::sum);
        return this;
    }

    /** A failed item re-submitted: it is open again until it is done or fails again. */
    public ScanEventBuilder retried(ItemKind kind) {
        retried.merge(kind, 1, Integer::sum);
        return this;
    }

    /** Retried table requests and throttling responses met while processing an item. */
    public ScanEventBuilder retries(long retried, long throttled) {
        retries += retried;
        throttles += throttled;
        return this;
    }

    /** The event a rerun of a stopped local job sends as it resumes the scan (see ScanFold). */
    public ScanEventBuilder resumed() {
        counters.put(RESUMED, 1L);
        return this;
    }

    public ScanEventBuilder cancelled() {
        cancelled = true;
        return this;
    }

    public ScanEvent build() {
        return new ScanEvent(scanId, System.currentTimeMillis(), startedSpec, counts(emitted), counts(done),
                counts(failed), rowsRead, rowsWritten, requests, maxDepth, firstError, counts(skipped),
                counts(retried), cancelled, retries, throttles, writeRequests, partitions, 0L, 0L, 0L, 0L,
                Map.copyOf(counters));
    }

    private static ItemCounts counts(Map<ItemKind, Integer> byKind) {
        return ItemKind.counts(kind -> byKind.getOrDefault(kind, 0));
    }
}
