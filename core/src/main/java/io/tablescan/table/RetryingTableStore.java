package io.tablescan.table;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import java.util.function.Supplier;

/**
 * Retries each request that failed transiently (throttling, timeouts, I/O), with backoff. A permanent
 * failure, or a transient one past the policy's attempts, is thrown with the attempts it took.
 */
public final class RetryingTableStore extends InterceptingTableStore {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RetryingTableStore.class);
    /** Retries and throttling responses (429, 503) of the requests made on this thread. */
    private static final ThreadLocal<long[]> THREAD_COUNTS = ThreadLocal.withInitial(() -> new long[2]);

    private static final Counter RETRY_METER = Counter.builder("tablescan.table.retries")
            .description("Table requests retried after a transient failure").register(Metrics.globalRegistry);
    private static final Counter THROTTLES = Counter.builder("tablescan.table.throttles")
            .description("Throttling responses (429, 503) from the table service").register(Metrics.globalRegistry);

    private final RetryPolicy policy;

    public RetryingTableStore(TableStore store, RetryPolicy policy) {
        super(store);
        this.policy = policy;
    }

    /**
     * Retries (index 0) and throttling responses (index 1) of the requests made on this thread since the last
     * call, which resets them: a worker attributes them to the item it is processing.
     */
    public static long[] takeThreadCounts() {
        long[] counts = THREAD_COUNTS.get();
        long[] taken = counts.clone();
        counts[0] = 0;
        counts[1] = 0;
        return taken;
    }

    /**
     * Counts a retry made above the stores (a sink's write retried by the worker), so the ledger counts it with
     * the item this thread is processing, like the stores' own.
     */
    public static void countRetry() {
        THREAD_COUNTS.get()[0]++;
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        for (int attempt = 1; ; attempt++) {
            try {
                return request.get();
            } catch (TableStoreException e) {
                if (e.status() == 429 || e.status() == 503) {
                    THREAD_COUNTS.get()[1]++;
                    THROTTLES.increment();
                }
                if (!e.isTransient() || attempt >= policy.maxAttempts()) {
                    throw new FailedRequestException(e, attempt);
                }
                RETRY_METER.increment();
                THREAD_COUNTS.get()[0]++;
                LOG.debug("retrying a table request after: {} (attempt {})", e.getMessage(), attempt);
                try {
                    Thread.sleep(policy.delay(attempt)); // backoff between attempts of one request
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new FailedRequestException(e, attempt);
                }
            }
        }
    }

    /** A request that failed for good, and how many attempts it took. */
    public static final class FailedRequestException extends TableStoreException {
        private final int attempts;

        FailedRequestException(TableStoreException cause, int attempts) {
            super(cause.getMessage() + (attempts > 1 ? " (after " + attempts + " attempts)" : ""), cause.status(),
                    cause.isTransient(), cause);
            this.attempts = attempts;
        }

        public int attempts() {
            return attempts;
        }
    }
}
