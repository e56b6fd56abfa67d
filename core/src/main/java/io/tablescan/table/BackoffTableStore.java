package io.tablescan.table;

import io.tablescan.rate.Backoff;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.function.Supplier;

/**
 * An account's store, shared by a process's items, that slows down when the service throttles (429, 503): every
 * attempt, retries included, waits for the account's and its partition's {@link Backoff} pace, so a throttled
 * account sees fewer requests instead of retries at full speed.
 */
public final class BackoffTableStore extends InterceptingTableStore {
    private final Backoff backoff;

    public BackoffTableStore(TableStore store, String alias) {
        super(store);
        this.backoff = new Backoff(alias);
    }

    public Backoff backoff() {
        return backoff;
    }

    @Override
    protected <T> T call(String operation, Target target, Supplier<T> request) {
        return paced(target.partitionKey(), request);
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        return paced(null, request);
    }

    private <T> T paced(String partition, Supplier<T> request) {
        try {
            backoff.before(partition);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TableStoreException("interrupted while backing off", 0, true, e);
        }
        try {
            T result = request.get();
            backoff.passed(partition);
            return result;
        } catch (TableStoreException e) {
            if (e.status() == 429 || e.status() == 503) {
                backoff.throttled(partition);
            }
            throw e;
        }
    }
}
