package io.tablescan.table;

import io.tablescan.rate.Direction;
import io.tablescan.rate.Lane;
import io.tablescan.rate.ScanRates;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.Page;
import io.tablescan.spi.TableStore;
import java.util.function.Supplier;

/**
 * One item's store of a capped scan: a read of the source takes a page's worth of the read share first and gives
 * back what the page did not hold; a write to the destination, and a batch of deletes (a mirror's there, a delete
 * job's in its source), takes its rows' worth of the write share. A read of a cancelled scan, waiting for its share
 * when the cancel comes or started after, is not sent if the item has written nothing yet (see {@link ItemWrites}).
 * Other requests (the destination's reads of a verify, table admin) pass as they are. The lane is asked for at each
 * request ({@link ScanRates#lane}): an item may outlast a lane's idle minute (a long write at a low write cap leaves
 * its read lane idle).
 */
final class RateLimitedTableStore extends InterceptingTableStore {
    private final ScanSpec spec;
    private final ScanRates rates;
    private final String source;
    private final String destination;
    private final ItemWrites writes;

    RateLimitedTableStore(TableStore store, ScanSpec spec, ScanRates rates, ItemWrites writes) {
        super(store);
        this.spec = spec;
        this.rates = rates;
        this.source = spec.getSource().getTable();
        this.destination = spec.getDestination() == null ? null : spec.getDestination().getTable();
        this.writes = writes;
    }

    @Override
    protected <T> T call(String operation, Target target, Supplier<T> request) {
        Direction direction = operation.equals("query") && target.table().equals(source) ? Direction.READ
                : operation.equals("upsert") && target.table().equals(destination) ? Direction.WRITE
                // a mirror's deletes in its destination; a delete job's in its source (it has no destination)
                : operation.equals("delete") && target.table().equals(destination != null ? destination : source)
                        ? Direction.WRITE
                : null;
        if (direction == null) {
            return request.get();
        }
        Lane lane = rates.lane(spec, direction);
        if (direction == Direction.WRITE) {
            Supplier<T> sent = () -> {
                writes.writing();
                return request.get();
            };
            return lane.run(target.rows(), sent, result -> target.rows());
        }
        // A read of an item that has written nothing yet gives up when the scan is cancelled: the item is skipped.
        return lane.run(target.rows(), request, result -> result instanceof Page page ? page.rows().size() : target.rows(),
                !writes.hasWritten());
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        return request.get();
    }
}
