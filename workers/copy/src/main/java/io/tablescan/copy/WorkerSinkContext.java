package io.tablescan.copy;

import io.tablescan.runtime.WorkerSettings;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;

/** A sink's view of the worker: its reference, and the worker's stores of the accounts it names. */
record WorkerSinkContext(SinkRef ref, WorkerSettings settings) implements SinkContext {
    @Override
    public <T> T account(String alias, Class<T> kind) {
        if (kind == TableStore.class) {
            // Without retries: the worker retries a sink's failed writes, counting them for the item written.
            return kind.cast(settings.account(alias)); // throws UnknownAccountException for an alias it lacks
        }
        throw new IllegalArgumentException("this worker has no " + kind.getSimpleName() + " for account '" + alias + "'");
    }
}
