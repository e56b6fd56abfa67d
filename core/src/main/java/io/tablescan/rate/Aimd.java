package io.tablescan.rate;

/**
 * A rate in requests per second that drops by 30% when the service throttles and grows back by a step a second when it
 * stops (additive increase, multiplicative decrease, as TCP does), unlimited until the first throttle and again
 * after a quiet half minute. One decrease a second at most: the throttles of requests already in flight are one
 * signal.
 */
final class Aimd {
    static final double DECREASE = 0.7;
    static final double MIN_RATE = 1;
    static final long QUIET_MILLIS = 30_000;
    /** Growth a second, as a part of the rate set by the last decrease: back to where it was within 10 s. */
    static final double STEP = 0.1;

    final TokenBucket bucket = new TokenBucket(0);
    private long windowStart;
    private int windowCount;
    private int lastWindowCount;
    private long lastDecrease = Long.MIN_VALUE / 2;
    private long lastIncrease;
    private double step;

    /** Waits for this key's pace (none when not backing off), and counts the request. */
    void before(long nowMillis) throws InterruptedException {
        count(nowMillis);
        bucket.acquire(1);
    }

    private synchronized void count(long now) {
        if (now - windowStart >= 1000) {
            lastWindowCount = now - windowStart < 2000 ? windowCount : 0;
            windowStart = now;
            windowCount = 0;
        }
        windowCount++;
    }

    /** The service throttled a request: lower the rate (from the rate seen, the first time). */
    synchronized void throttled(long now) {
        if (now - lastDecrease < 1000) {
            return;
        }
        double rate = bucket.rate();
        double from = rate > 0 ? rate : Math.max(MIN_RATE, Math.max(lastWindowCount, windowCount));
        double lowered = Math.max(MIN_RATE, from * DECREASE);
        step = Math.max(MIN_RATE, lowered * STEP);
        bucket.setRate(lowered);
        lastDecrease = now;
        lastIncrease = now;
    }

    /** A request passed: a second after the last change, raise the rate by a step; after a quiet while, no limit. */
    synchronized void passed(long now) {
        double rate = bucket.rate();
        if (rate <= 0 || now - lastIncrease < 1000) {
            return;
        }
        bucket.setRate(now - lastDecrease >= QUIET_MILLIS ? 0 : rate + step);
        lastIncrease = now;
    }

    /** The rate this key is held to, requests/s; 0: not backing off. */
    double rate() {
        return bucket.rate();
    }
}
