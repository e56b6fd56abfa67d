package io.tablescan.azure;

import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkProvider;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;

/** Sinks of type {@code table}: a copy to the table {@code target} of the account {@code account}. */
public final class TableSinkProvider implements SinkProvider {
    @Override
    public String type() {
        return SinkRefs.TABLE;
    }

    @Override
    public RowSink create(SinkContext context) {
        SinkRef ref = context.ref();
        if (ref.account() == null || ref.account().isBlank()) {
            throw SinkException.permanent("a table sink needs an account alias (target table '" + ref.target() + "')");
        }
        // The worker's store of the account: retries, metering and injected faults, as for every table request.
        return new TableSink(context.account(ref.account(), TableStore.class), ref.target());
    }
}
