package io.tablescan.sink;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkException;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import java.util.List;
import java.util.function.Supplier;

/**
 * The runtime's guarantees around any sink, so a sink need not implement them: prepared once before its first
 * write (again after a failed prepare), and transient {@link SinkException}s retried with the worker's backoff.
 * Other exceptions pass unchanged: they are permanent, or already retried below (the table sink's store
 * retries each request itself).
 */
final class GuardedSink implements RowSink {
    private static final Counter RETRIES = Counter.builder("tablescan.sink.retries")
            .description("Sink writes retried after a transient failure").register(Metrics.globalRegistry);

    private final RowSink sink;
    private final RetryPolicy retry;
    private volatile boolean prepared;

    GuardedSink(RowSink sink, RetryPolicy retry) {
        this.sink = sink;
        this.retry = retry;
    }

    @Override
    public void prepare() {
        if (!prepared) {
            synchronized (this) { // concurrent first writes prepare once
                if (!prepared) {
                    retried(() -> {
                        sink.prepare();
                        return null;
                    });
                    prepared = true;
                }
            }
        }
    }

    @Override
    public int write(List<Row> rows) {
        prepare();
        return retried(() -> sink.write(rows));
    }

    @Override
    public void close() {
        sink.close();
    }

    private <T> T retried(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (SinkException e) {
                if (!e.isTransient() || attempt >= retry.maxAttempts()) {
                    throw new FailedWriteException(e, attempt);
                }
                RETRIES.increment();
                RetryingTableStore.countRetry(); // the ledger counts it with the item, as a table request's
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
