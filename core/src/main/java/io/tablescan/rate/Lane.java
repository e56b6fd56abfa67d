package io.tablescan.rate;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** One capped scan's rate in one direction, in this process: its bucket, and what it wanted since the last tick. */
final class Lane {
    final String scanId;
    final Direction direction;
    /** The cap the spec gave; a throttle record overrides it. */
    final long specCap;
    final TokenBucket bucket = new TokenBucket(0);
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong rows = new AtomicLong();
    volatile long cap;
    /** Whether the last tick published a demand above 0 (so the next idle tick publishes 0 once). */
    boolean wanted;
    /** The demand the last tick published. */
    volatile int lastDemand;

    Lane(String scanId, Direction direction, long specCap) {
        this.scanId = scanId;
        this.direction = direction;
        this.specCap = specCap;
        this.cap = specCap;
        bucket.setRate(specCap > 0 ? specCap * Shares.NEWCOMER : 0);
    }

    /** Takes {@code n} rows' worth of the share, counting this request as wanting the rate until {@link #done}. */
    void begin(double n) throws InterruptedException {
        peak.accumulateAndGet(active.incrementAndGet(), Math::max);
        try {
            bucket.acquire(n);
        } catch (InterruptedException e) {
            active.decrementAndGet();
            throw e;
        }
    }

    /** The request took {@code taken} rows' worth and passed {@code used} rows. */
    void done(double taken, long used) {
        active.decrementAndGet();
        rows.addAndGet(used);
        if (used < taken) {
            bucket.refund(taken - used);
        }
    }

    /** The most requests that wanted the rate at once since the last call (now's count included). */
    int takeDemand() {
        return peak.getAndSet(active.get());
    }

    long takeRows() {
        return rows.getAndSet(0);
    }
}
