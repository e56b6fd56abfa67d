package io.tablescan.sink;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkOutput;
import io.tablescan.table.RetryCounter;
import io.tablescan.table.RetryPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The runtime's guarantees around any sink, so a sink need not implement them: prepared once before its first
 * write (again after a failed prepare), flushed only when written to since its last flush, and transient
 * {@link SinkException}s retried with the worker's backoff, each retry counted for the item being written. Other
 * exceptions pass unchanged: they are permanent.
 */
public final class GuardedSink implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GuardedSink.class);
    /** A sink's retried writes (the table sink's included: its store does not retry); table reads retry below. */
    private static final Counter RETRIES = Counter.builder("tablescan.sink.retries")
            .description("Sink writes retried after a transient failure").register(Metrics.globalRegistry);

    private final RowSink sink;
    private final RetryPolicy retry;
    private volatile boolean prepared;
    /** Written to since its last flush. */
    private final AtomicBoolean unflushed = new AtomicBoolean();

    GuardedSink(RowSink sink, RetryPolicy retry) {
        this.sink = sink;
        this.retry = retry;
    }

    private void prepare(RetryCounter counter) {
        if (!prepared) {
            synchronized (this) { // concurrent first writes prepare once
                if (!prepared) {
                    retried(counter, () -> {
                        sink.prepare();
                        return null;
                    });
                    prepared = true;
                }
            }
        }
    }

    /**
     * Writes rows of one partition, retrying transient failures and counting each retry in {@code counter}; the
     * records the successful attempt published go to {@code output} (a failed attempt's are dropped with it, so a
     * retry does not publish them twice).
     *
     * @return the requests the write took
     * @throws FailedWriteException when it failed for good, with the attempts it took
     */
    public int write(List<Row> rows, RetryCounter counter, SinkOutput output) {
        prepare(counter);
        try {
            return retried(counter, () -> {
                Attempt attempt = new Attempt();
                int requests = sink.write(rows, attempt);
                attempt.published.forEach(record -> record.accept(output));
                return requests;
            });
        } finally {
            unflushed.set(true); // once it returned: a flush that began while it ran may not hold its rows
        }
    }

    /**
     * The sink's commit point, if it was written to since its last one, retrying transient failures.
     *
     * @throws FailedWriteException when it failed for good (it is tried again at the next flush)
     */
    public void flush() {
        if (unflushed.getAndSet(false)) {
            try {
                retried(RetryCounter.NONE, () -> { // retries belong to no one item: counted in the metric alone
                    sink.flush();
                    return null;
                });
            } catch (RuntimeException e) {
                unflushed.set(true);
                throw e;
            }
        }
    }

    /** What one attempt published, handed on only if it succeeds. */
    private static final class Attempt implements SinkOutput {
        private final List<Consumer<SinkOutput>> published = new ArrayList<>();

        @Override
        public void publish(String topic, byte[] key, byte[] value, Map<String, byte[]> headers) {
            Map<String, byte[]> copy = headers == null ? Map.of() : Map.copyOf(headers);
            published.add(output -> output.publish(topic, key, value, copy));
        }
    }

    @Override
    public void close() {
        sink.close();
    }

    private <T> T retried(RetryCounter counter, Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (SinkException e) {
                if (e.isThrottled()) {
                    counter.throttled();
                }
                if (!e.isTransient() || attempt >= retry.maxAttempts()) {
                    throw new FailedWriteException(e, attempt);
                }
                RETRIES.increment();
                counter.retried(); // the ledger counts it with the item, as a table request's
                LOG.debug("retrying a sink write after: {} (attempt {})", e.getMessage(), attempt);
                try {
                    Thread.sleep(retry.delay(attempt)); // backoff between attempts of one write
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new FailedWriteException(e, attempt);
                }
            }
        }
    }
}
