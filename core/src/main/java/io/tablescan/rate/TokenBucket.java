package io.tablescan.rate;

import java.util.concurrent.locks.LockSupport;

/**
 * A token bucket in rows (or requests) per second whose rate may change at any time. A request may start while the
 * bucket is not in debt and takes its whole cost at once (a page of 1,000 rows may exceed the burst), so later ones
 * wait until the debt is paid: over time no more than the rate passes. Waits are short slices, so a new rate
 * counts within a fraction of a second. A rate of 0 or less means no limit.
 */
public final class TokenBucket {
    /** The most a bucket saves while idle: a fifth of a second of its rate. */
    private static final double BURST_SECONDS = 0.2;
    private static final long MAX_SLICE_NANOS = 100_000_000L;

    private final LongSupplierNanos clock;
    private double rate;
    private double tokens;
    private long last;

    public TokenBucket(double rate) {
        this(rate, System::nanoTime);
    }

    TokenBucket(double rate, LongSupplierNanos clock) {
        this.clock = clock;
        this.last = clock.nanos();
        this.rate = rate;
    }

    /** The clock, in nanoseconds (a test's own). */
    interface LongSupplierNanos {
        long nanos();
    }

    public synchronized void setRate(double rate) {
        refill();
        this.rate = rate;
    }

    public synchronized double rate() {
        return rate;
    }

    /** Takes {@code n} tokens, waiting while the bucket is in debt. */
    public void acquire(double n) throws InterruptedException {
        acquire(n, () -> false);
    }

    /**
     * As {@link #acquire(double)}, unless {@code giveUp} says so while it waits (checked every slice): then false,
     * and nothing is taken.
     */
    public boolean acquire(double n, java.util.function.BooleanSupplier giveUp) throws InterruptedException {
        while (true) {
            if (giveUp.getAsBoolean()) {
                return false;
            }
            long wait = tryTake(n);
            if (wait <= 0) {
                return true;
            }
            LockSupport.parkNanos(Math.min(wait, MAX_SLICE_NANOS));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** Takes the tokens and returns 0, or returns how long the debt takes to be paid at today's rate. */
    synchronized long tryTake(double n) {
        if (rate <= 0) {
            return 0;
        }
        refill();
        if (tokens >= 0) {
            tokens -= n;
            return 0;
        }
        return Math.max(1, (long) (-tokens / rate * 1e9));
    }

    /** Whether requests taken so far are not yet paid for at today's rate: the next one would wait. */
    public synchronized boolean inDebt() {
        if (rate <= 0) {
            return false;
        }
        refill();
        return tokens < 0;
    }

    /** Gives back tokens taken but not used (a page shorter than its size). */
    public synchronized void refund(double n) {
        if (rate > 0) {
            refill();
            tokens = Math.min(tokens + n, burst());
        }
    }

    private double burst() {
        return Math.max(1, rate * BURST_SECONDS);
    }

    private void refill() {
        long now = clock.nanos();
        if (rate > 0) {
            tokens = Math.min(burst(), tokens + (now - last) * rate / 1e9);
        }
        last = now;
    }
}
