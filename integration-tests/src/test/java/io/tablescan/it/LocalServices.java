package io.tablescan.it;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.local.AzuriteServer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import io.tablescan.spi.TableStore;

/** One embedded broker and one Azurite for all the tests of a JVM, stopped when it exits. */
final class LocalServices {
    private static EmbeddedKafkaBroker broker;
    private static AzuriteServer azurite;
    private static TableStore store;

    private LocalServices() {}

    static synchronized EmbeddedKafkaBroker broker() {
        if (broker == null) {
            broker = EmbeddedKafkaBroker.start();
        }
        return broker;
    }

    static synchronized AzuriteServer azurite() {
        if (azurite == null) {
            azurite = AzuriteServer.start();
        }
        return azurite;
    }

    /** Azurite's account for test set-up and checks, retrying like the workers do (Azurite resets idle connections). */
    static synchronized TableStore store() {
        if (store == null) {
            store = new RetryingTableStore(AzureTableStore.fromConnectionString(azurite().connectionString()),
                    RetryPolicy.DEFAULT);
        }
        return store;
    }
}
