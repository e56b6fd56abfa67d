package io.tablescan.table;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Resolves the account aliases that work items name to table stores. Credentials come from the worker's own
 * environment ({@code TABLESCAN_ACCOUNT_<ALIAS>_CONNECTION_STRING}); they never travel in Kafka.
 */
public final class Accounts {
    private final Function<String, String> env;
    private final Map<String, TableStore> stores = new ConcurrentHashMap<>();

    public Accounts(Function<String, String> env) {
        this.env = env;
    }

    public static Accounts fromEnvironment() {
        return new Accounts(System::getenv);
    }

    public static String variable(String alias) {
        return "TABLESCAN_ACCOUNT_" + alias.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_CONNECTION_STRING";
    }

    /** Binds an alias to a store directly (the in-process copy, tests, benchmarks). */
    public Accounts register(String alias, TableStore store) {
        stores.put(alias.toLowerCase(Locale.ROOT), store);
        return this;
    }

    public TableStore get(String alias) {
        return stores.computeIfAbsent(alias.toLowerCase(Locale.ROOT), key -> {
            String connectionString = env.apply(variable(alias));
            if (connectionString == null || connectionString.isBlank()) {
                throw new UnknownAccountException("unknown account alias '" + alias + "': set " + variable(alias));
            }
            try {
                return AzureTableStore.fromConnectionString(connectionString);
            } catch (IllegalArgumentException e) {
                throw new UnknownAccountException("account alias '" + alias + "': " + e.getMessage());
            }
        });
    }

    /** A work item names an account this worker has no credentials for: permanent for that item. */
    public static final class UnknownAccountException extends RuntimeException {
        public UnknownAccountException(String message) {
            super(message, null, false, false);
        }
    }
}
