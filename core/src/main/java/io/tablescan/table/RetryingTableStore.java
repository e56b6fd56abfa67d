package io.tablescan.table;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.function.Supplier;

/**
 * Retries each request that failed transiently (throttling, timeouts, I/O), with backoff. A permanent
 * failure, or a transient one past the policy's attempts, is thrown with the attempts it took.
 */
public final class RetryingTableStore extends InterceptingTableStore {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RetryingTableStore.class);
    private static final Counter RETRY_METER = Counter.builder("tablescan.table.retries")
            .description("Table requests retried after a transient failure").register(Metrics.globalRegistry);

    private final RetryPolicy policy;
    private final RetryCounter counter;

    /** Retries by {@code policy}, counting them in {@code counter} (the context of the item the requests are for). */
    public RetryingTableStore(TableStore store, RetryPolicy policy, RetryCounter counter) {
        super(store);
        this.policy = policy;
        this.counter = counter;
    }

    /** Retries by {@code policy}, counting nowhere but the worker's meters (work outside any item). */
    public RetryingTableStore(TableStore store, RetryPolicy policy) {
        this(store, policy, RetryCounter.NONE);
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        for (int attempt = 1; ; attempt++) {
            try {
                return request.get();
            } catch (TableStoreException e) {
                if (e.status() == 429 || e.status() == 503) {
                    counter.throttled(); // the meter is MeteredTableStore's, which sees every response
                }
                if (!e.isTransient() || attempt >= policy.maxAttempts()) {
                    throw new FailedRequestException(e, attempt);
                }
                RETRY_METER.increment();
                counter.retried();
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
