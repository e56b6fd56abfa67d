package io.tablescan.table;

import io.tablescan.spi.TableStore;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Resolves the account aliases that work items name to table stores. Credentials come from the worker's own
 * environment ({@code TABLESCAN_ACCOUNT_<ALIAS>_CONNECTION_STRING}, {@code _ENDPOINT}, {@code _SAS_TOKEN},
 * {@code _CLIENT_ID}); they never travel in Kafka.
 */
public final class Accounts {
    public static final String CONNECTION_STRING = "CONNECTION_STRING";
    public static final String ENDPOINT = "ENDPOINT";
    public static final String SAS_TOKEN = "SAS_TOKEN";
    public static final String CLIENT_ID = "CLIENT_ID";
    /** The read-access secondary endpoint, where it cannot be derived from the primary (an emulator). */
    public static final String SECONDARY_ENDPOINT = "SECONDARY_ENDPOINT";
    private final Function<String, String> env;
    private final Map<String, TableStore> stores = new ConcurrentHashMap<>();
    private final Map<String, TableStore> secondaries = new ConcurrentHashMap<>();
    /** The table adapter on the class path (the Azure one in every build); core itself knows no service. */
    private static final AccountConnector CONNECTOR = ServiceLoader.load(AccountConnector.class).findFirst()
            .orElse(settings -> {
                throw new IllegalArgumentException("no table adapter on the class path");
            });

    public Accounts(Function<String, String> env) {
        this.env = env;
    }

    public static Accounts fromEnvironment() {
        return new Accounts(System::getenv);
    }

    /**
     * Why {@code alias} cannot name an account, or null when it can. An alias names environment variables, so
     * it is letters, digits, '-' and '_' ('-' becomes '_'); anything else ("a b!") would need variable names
     * nobody can set from a shell, and a scan naming it would only fail later, in the workers.
     */
    public static String aliasProblem(String alias) {
        if (alias.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,62}")) {
            return null;
        }
        String shown = alias.length() <= 63 && alias.matches("[A-Za-z0-9_. -]*") ? "'" + alias + "' " : "";
        return shown + "is not a valid account alias (1 to 63 letters, digits, '-' and '_', starting with a letter or "
                + "digit: it names the variables TABLESCAN_ACCOUNT_<ALIAS>_*)";
    }

    /** The variable that holds {@code setting} (CONNECTION_STRING, ENDPOINT, SAS_TOKEN, CLIENT_ID) for an alias. */
    public static String variable(String alias, String setting) {
        return "TABLESCAN_ACCOUNT_" + alias.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_" + setting;
    }

    public static String variable(String alias) {
        return variable(alias, CONNECTION_STRING);
    }

    /** True for a variable that configures an account alias. */
    public static boolean isAccountVariable(String variable) {
        return variable.matches(
                "TABLESCAN_ACCOUNT_[A-Z0-9_]+_(CONNECTION_STRING|ENDPOINT|SAS_TOKEN|CLIENT_ID|BLOB_ENDPOINT|SECONDARY_ENDPOINT)");
    }

    /** Binds an alias to a store directly (the in-process copy, tests, benchmarks). */
    public Accounts register(String alias, TableStore store) {
        stores.put(alias.toLowerCase(Locale.ROOT), store);
        return this;
    }

    /**
     * The alias's store: the one registered, or the one the table adapter opens from the alias's settings (a
     * connection string; an endpoint with a SAS token; an endpoint alone, signed in with Microsoft Entra ID).
     */
    public TableStore get(String alias) {
        return stores.computeIfAbsent(alias.toLowerCase(Locale.ROOT), key -> {
            TableStore opened;
            try {
                opened = CONNECTOR.open(setting -> setting(alias, setting));
            } catch (IllegalArgumentException e) {
                throw new UnknownAccountException("account alias '" + alias + "': " + e.getMessage());
            }
            if (opened == null) {
                throw new UnknownAccountException("unknown account alias '" + alias + "': set " + variable(alias)
                        + ", or " + variable(alias, ENDPOINT) + " with " + variable(alias, SAS_TOKEN)
                        + " (or alone for Entra ID)");
            }
            return opened;
        });
    }

    /** Binds an alias's read-access secondary to a store directly (a local run's source given on the command line). */
    public Accounts registerSecondary(String alias, TableStore store) {
        secondaries.put(alias.toLowerCase(Locale.ROOT), new ReadOnlyTableStore(store));
        return this;
    }

    /**
     * The alias's read-access secondary, read-only: the one registered, or the alias's credentials opened on its
     * {@value #SECONDARY_ENDPOINT} (else the one derived from its Azure endpoint, see {@link SecondaryEndpoints}).
     */
    public TableStore secondary(String alias) {
        return secondaries.computeIfAbsent(alias.toLowerCase(Locale.ROOT), key -> {
            String endpoint = secondaryEndpoint(alias);
            TableStore opened;
            try {
                opened = CONNECTOR.open(setting -> switch (setting) {
                    case CONNECTION_STRING -> setting(alias, setting) == null ? null
                            : SecondaryEndpoints.withTableEndpoint(setting(alias, setting), endpoint);
                    case ENDPOINT -> setting(alias, setting) == null ? null : endpoint;
                    default -> setting(alias, setting);
                });
            } catch (IllegalArgumentException e) {
                throw new UnknownAccountException("account alias '" + alias + "': " + e.getMessage());
            }
            if (opened == null) {
                throw new UnknownAccountException("unknown account alias '" + alias + "': set " + variable(alias));
            }
            return new ReadOnlyTableStore(opened);
        });
    }

    /** The secondary endpoint of an alias's account: set, or derived from its primary; none is a user's mistake. */
    public String secondaryEndpoint(String alias) {
        String set = setting(alias, SECONDARY_ENDPOINT);
        if (set != null) {
            return set;
        }
        String cs = setting(alias, CONNECTION_STRING);
        String derived = SecondaryEndpoints.derive(cs != null ? SecondaryEndpoints.primaryOf(cs)
                : setting(alias, ENDPOINT));
        if (derived == null) {
            throw new UnknownAccountException("account alias '" + alias + "' has no read-access secondary endpoint "
                    + "that can be derived (not an Azure table endpoint): set " + variable(alias, SECONDARY_ENDPOINT));
        }
        return derived;
    }

    /** True when this process has credentials of some kind for the alias. */
    public boolean configured(String alias) {
        return stores.containsKey(alias.toLowerCase(Locale.ROOT))
                || setting(alias, CONNECTION_STRING) != null || setting(alias, ENDPOINT) != null;
    }

    private String setting(String alias, String setting) {
        String value = env.apply(variable(alias, setting));
        return value == null || value.isBlank() ? null : value;
    }

    /** A work item names an account this worker has no credentials for: permanent for that item. */
    public static final class UnknownAccountException extends RuntimeException {
        public UnknownAccountException(String message) {
            super(message, null, false, false);
        }
    }
}
