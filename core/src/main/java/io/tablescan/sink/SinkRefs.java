package io.tablescan.sink;

import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.SinkRef;
import java.util.Map;

/** The sink a scan names. A spec without one (every released version's) means the table sink on its destination. */
public final class SinkRefs {
    public static final String TABLE = "table";

    private SinkRefs() {}

    /** The scan's sink, or null for a scan whose batches only other consumers process. */
    public static SinkRef of(ScanSpec spec) {
        io.tablescan.schema.SinkRef sink = spec.getSink();
        if (sink != null) {
            return new SinkRef(sink.getType(), sink.getAccount(), sink.getTarget(),
                    sink.getOptions() == null ? Map.of() : sink.getOptions());
        }
        TableRef destination = spec.getDestination();
        return destination == null ? null : new SinkRef(TABLE, destination.getAccount(), destination.getTable(), Map.of());
    }

    /** The wire form of a sink reference, for a scan spec. */
    public static io.tablescan.schema.SinkRef toWire(SinkRef ref) {
        return io.tablescan.schema.SinkRef.newBuilder().setType(ref.type()).setAccount(ref.account())
                .setTarget(ref.target()).setOptions(Map.copyOf(ref.options())).build();
    }
}
