package io.tablescan.table;

import io.tablescan.spi.TableStoreException;
import java.util.function.Supplier;

/**
 * An account whose queries return rows in no key order (Azure Cosmos DB for Table), as a worker sees it: its queries
 * are refused, permanently, since the scan infers from a page's order which keys it has finished and would skip
 * rows there; an item that reads it fails with this reason instead. Point reads and writes pass.
 */
final class KeyOrderRequired extends InterceptingTableStore {
    private final String alias;

    KeyOrderRequired(io.tablescan.spi.TableStore store, String alias) {
        super(store);
        this.alias = alias;
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        if (operation.equals("query")) {
            throw new TableStoreException("account " + alias + " is an Azure Cosmos DB for Table account, whose queries "
                    + "return rows in no key order: the scan relies on that order and does not read it", 400, false,
                    null);
        }
        return request.get();
    }
}
