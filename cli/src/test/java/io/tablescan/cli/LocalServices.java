package io.tablescan.cli;

import io.tablescan.local.AzuriteServer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.table.AzureTableStore;

/** One embedded broker and one Azurite for all the tests of a JVM, stopped when it exits. */
final class LocalServices {
    private static EmbeddedKafkaBroker broker;
    private static AzuriteServer azurite;
    private static AzureTableStore store;

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

    static synchronized AzureTableStore store() {
        if (store == null) {
            store = AzureTableStore.fromConnectionString(azurite().connectionString());
        }
        return store;
    }
}
