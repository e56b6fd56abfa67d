package io.tablescan.examples.swapkeys;

import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkProvider;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;

/**
 * Sinks of type {@code swap-keys}: every row into the table {@code target} of the account {@code account}, with
 * its PartitionKey and RowKey swapped. Named by the line in {@code META-INF/services/io.tablescan.spi.SinkProvider}.
 */
public final class SwapKeysSinkProvider implements SinkProvider {
    public static final String TYPE = "swap-keys";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public RowSink create(SinkContext context) {
        SinkRef ref = context.ref();
        if (ref.account() == null || ref.account().isBlank() || ref.target() == null || ref.target().isBlank()) {
            // permanent: every batch of the scan is parked with this reason, none is retried
            throw SinkException.permanent("a swap-keys sink needs an account alias and a target table");
        }
        // The worker's store for the alias (its credentials stay in the worker's environment); the worker
        // retries this sink's transient failures and counts them.
        return new SwapKeysSink(context.account(ref.account(), TableStore.class), ref.target());
    }
}
