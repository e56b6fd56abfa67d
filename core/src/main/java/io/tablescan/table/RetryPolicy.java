package io.tablescan.table;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with full jitter, bounded in attempts. */
public record RetryPolicy(int maxAttempts, Duration firstDelay, Duration maxDelay) {
    public static final RetryPolicy DEFAULT = new RetryPolicy(8, Duration.ofMillis(200), Duration.ofSeconds(10));

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /** The pause before attempt {@code attempt + 1}, after {@code attempt} failures. */
    public Duration delay(int attempt) {
        long ceiling = Math.min(maxDelay.toMillis(), firstDelay.toMillis() << Math.min(attempt - 1, 20));
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
    }
}
