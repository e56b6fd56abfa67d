package io.tablescan.table;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Times every request (each attempt of a retried one) in {@code tablescan.table.requests}, by account alias,
 * operation and outcome ({@code ok} or the HTTP status, 0 for I/O errors), and counts throttling responses:
 * every request passes here, the scan's reads and the table sink's writes alike.
 */
public final class MeteredTableStore extends InterceptingTableStore {
    private static final Counter THROTTLES = Counter.builder("tablescan.table.throttles")
            .description("Throttling responses (429, 503) from the table service").register(Metrics.globalRegistry);

    private final String account;
    /** Timers by operation and outcome: looked up once, not built on every request. */
    private final java.util.Map<String, Timer> timers = new java.util.concurrent.ConcurrentHashMap<>();

    public MeteredTableStore(TableStore store, String account) {
        super(store);
        this.account = account;
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        long start = System.nanoTime();
        String outcome = "ok";
        try {
            return request.get();
        } catch (TableStoreException e) {
            outcome = Integer.toString(e.status());
            if (e.status() == 429 || e.status() == 503) {
                THROTTLES.increment();
            }
            throw e;
        } finally {
            timer(operation, outcome).record(Duration.ofNanos(System.nanoTime() - start));
        }
    }

    private Timer timer(String operation, String outcome) {
        return timers.computeIfAbsent(operation + " " + outcome, key -> Timer.builder("tablescan.table.requests")
                .description("Table service requests by account alias, operation and outcome")
                .tags("account", account, "operation", operation, "outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(Metrics.globalRegistry));
    }
}
