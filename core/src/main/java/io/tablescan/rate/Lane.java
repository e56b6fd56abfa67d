package io.tablescan.rate;

import io.tablescan.spi.TableStoreException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/** One capped scan's rate in one direction, in this process: its bucket, and what it wanted since the last tick. */
public final class Lane {
    final String scanId;
    final Direction direction;
    /** The cap the spec gave; a throttle record overrides it. */
    final long specCap;
    final TokenBucket bucket = new TokenBucket(0);
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong rows = new AtomicLong();
    volatile long cap;
    /** Set when this process's workers stop: requests still waiting for the rate are not sent (see {@link #stop}). */
    private volatile boolean stopped;
    /** Set while the scan is cancelled: a request that may give up then is not sent (see {@link #run}). */
    private volatile boolean cancelled;
    /** Whether the last tick published a demand above 0 (so the next idle tick publishes 0 once). */
    boolean wanted;
    /** The demand the last tick published. */
    volatile int lastDemand;
    /** When a request last asked for this lane (see {@link ScanRates#lane}), ms. */
    volatile long lastUsed = System.currentTimeMillis();

    Lane(String scanId, Direction direction, long specCap) {
        this.scanId = scanId;
        this.direction = direction;
        this.specCap = specCap;
        this.cap = specCap;
        bucket.setRate(specCap > 0 ? specCap * Shares.NEWCOMER : 0);
    }

    /** Requests of this lane waiting for their share or under way. */
    int active() {
        return active.get();
    }

    /**
     * Nobody asked for it for {@code idleMillis}, no request is in it, and it owes nothing: a lane made again in its
     * place would let through nothing this one would not.
     */
    boolean idle(long now, long idleMillis) {
        return now - lastUsed > idleMillis && active.get() == 0 && !bucket.inDebt();
    }

    /** The scan's cap in this direction now, rows/s (0: none). */
    public long cap() {
        return cap;
    }

    /**
     * Runs one request within the cap: takes {@code n} rows' worth first and, once it is answered, gives back what
     * {@code used} says it did not pass (a failed request keeps a write's share, as it may have been written, and
     * gives back a read's). No cap: the request runs as it is.
     */
    public <T> T run(long n, Supplier<T> request, ToLongFunction<T> used) {
        return run(n, request, used, false);
    }

    /**
     * As {@link #run(long, Supplier, ToLongFunction)}; with {@code mayGiveUp}, a request of a cancelled scan is not
     * sent, whether it is waiting for its share when the cancel comes or starts after ({@link WaitStoppedException}):
     * an item that has written nothing yet is skipped then, not kept waiting for a share a low cap lets through
     * seconds later (a Ctrl-C waited half a minute).
     */
    public <T> T run(long n, Supplier<T> request, ToLongFunction<T> used, boolean mayGiveUp) {
        if (cap <= 0) {
            return request.get();
        }
        try {
            begin(n, mayGiveUp);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TableStoreException("interrupted while waiting for the scan's rate cap", 0, true, e);
        }
        long passed = direction == Direction.WRITE ? n : 0;
        try {
            T result = request.get();
            passed = used.applyAsLong(result);
            return result;
        } finally {
            done(n, passed);
        }
    }

    /**
     * Takes {@code n} rows' worth of the share, counting this request as wanting the rate until {@link #done}.
     *
     * @throws WaitStoppedException when the workers stop while it waits: not sent
     */
    public void begin(double n) throws InterruptedException {
        begin(n, false);
    }

    /** As {@link #begin(double)}, giving up also when the scan is cancelled if {@code mayGiveUp}. */
    void begin(double n, boolean mayGiveUp) throws InterruptedException {
        peak.accumulateAndGet(active.incrementAndGet(), Math::max);
        boolean taken;
        try {
            taken = bucket.acquire(n, () -> stopped || mayGiveUp && cancelled);
        } catch (InterruptedException e) {
            active.decrementAndGet();
            throw e;
        }
        if (!taken) {
            active.decrementAndGet();
            throw new WaitStoppedException(!stopped);
        }
    }

    /**
     * The workers of this process stop: requests waiting for the rate give up at once (their items are left for a
     * replay), so that a stop waits for the requests under way only, not for those a low cap would let through
     * over the next seconds.
     */
    public void stop() {
        stopped = true;
    }

    /** The scan was cancelled (or its cancel withdrawn): see {@link #run(long, Supplier, ToLongFunction, boolean)}. */
    void cancelled(boolean cancelled) {
        this.cancelled = cancelled;
    }

    /** The request took {@code taken} rows' worth and passed {@code used} rows. */
    public void done(double taken, long used) {
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
