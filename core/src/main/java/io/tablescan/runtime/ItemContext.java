package io.tablescan.runtime;

import io.tablescan.schema.ScanSpec;
import io.tablescan.table.RetryCounter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a handler gets with one work item besides the item: the scan it belongs to, and the counts of retries
 * and throttling met while handling it (the stores and sinks the handler uses report to it), which the worker
 * adds to the scan's event when the item commits.
 */
public final class ItemContext implements RetryCounter {
    private final ScanSpec spec;
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong throttles = new AtomicLong();

    public ItemContext(ScanSpec spec) {
        this.spec = spec;
    }

    /** The scan the item belongs to. */
    public ScanSpec spec() {
        return spec;
    }

    @Override
    public void retried() {
        retries.incrementAndGet();
    }

    @Override
    public void throttled() {
        throttles.incrementAndGet();
    }

    /** Requests and writes retried so far for this item. */
    public long retries() {
        return retries.get();
    }

    /** Throttling responses met so far for this item. */
    public long throttles() {
        return throttles.get();
    }
}
