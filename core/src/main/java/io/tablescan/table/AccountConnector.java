package io.tablescan.table;

import io.tablescan.spi.TableStore;
import java.util.function.Function;

/**
 * Opens the table store of one account from the worker's settings for its alias. The table adapter provides
 * it through {@link java.util.ServiceLoader}, so that core, and the scanner in it, depend on no service's SDK.
 */
@FunctionalInterface
public interface AccountConnector {
    /**
     * The store the settings name, or null when none is set.
     *
     * @param setting the alias's value of {@link Accounts#CONNECTION_STRING}, {@link Accounts#ENDPOINT},
     *     {@link Accounts#SAS_TOKEN} or {@link Accounts#CLIENT_ID}; null when unset or blank
     * @throws IllegalArgumentException when a setting is malformed (the message never holds its value)
     */
    TableStore open(Function<String, String> setting);
}
