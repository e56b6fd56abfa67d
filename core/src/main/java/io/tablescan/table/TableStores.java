package io.tablescan.table;

import io.tablescan.rate.ScanRates;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.TableStore;

/**
 * The one place where a service's store gets its wrappers, always in the same order: injected faults innermost
 * (they stand for the service), metering next (it counts what the service answered, faults included), back-off
 * on throttling next (every attempt waits for its pace), retries outermost (per item, so that each item's retries are counted for it).
 */
public final class TableStores {
    private TableStores() {}

    /**
     * A worker's view of an account, shared by all its items: injected faults (a testing aid), metered by alias,
     * slowing down when the service throttles (every attempt waits for the account's back-off pace); an account
     * whose pages come in no key order is never queried ({@link KeyOrderRequired}).
     */
    public static TableStore shared(TableStore service, String alias, FaultInjectingTableStore.Faults faults) {
        TableStore ordered = service.rowsInKeyOrder() ? service : new KeyOrderRequired(service, alias);
        return new BackoffTableStore(new MeteredTableStore(FaultInjectingTableStore.wrap(ordered, faults), alias), alias);
    }

    /** One item's view of a shared store: transient failures retried by the worker's policy, counted for the item. */
    public static TableStore forItem(TableStore shared, RetryPolicy policy, RetryCounter counter) {
        return new RetryingTableStore(shared, policy, counter);
    }

    /**
     * One item's store of a capped scan: reads of the source and writes to the destination take from this process's
     * shares of the scan's caps ({@code rates}' lanes).
     */
    public static TableStore capped(TableStore item, ScanSpec spec, ScanRates rates, ItemWrites writes) {
        return new RateLimitedTableStore(item, spec, rates, writes);
    }

    /** A command's own requests outside any scan (filling the demo's, the sample's or the bench's table). */
    public static TableStore forCommand(TableStore service) {
        return new RetryingTableStore(service, RetryPolicy.DEFAULT);
    }
}
