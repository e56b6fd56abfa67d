package io.tablescan.cli;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.table.Accounts;
import io.tablescan.table.AzureTableStore;
import io.tablescan.table.TableStore;
import io.tablescan.table.TableStoreException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/** Up-front checks of what the user gave, each failing with one clear line. */
final class Checks {
    /** Azure's rule: 3 to 63 letters and digits, starting with a letter; "tables" is reserved. */
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

    private Checks() {}

    static String tableName(String option, String name) {
        if (!TABLE_NAME.matcher(name).matches() || name.equalsIgnoreCase("tables")) {
            throw new UserError(UserError.USAGE, option + ": '" + name
                    + "' is not a valid table name (3 to 63 letters and digits, starting with a letter)");
        }
        return name;
    }

    static int pageSize(int pageSize) {
        if (pageSize < 1 || pageSize > 1000) {
            throw new UserError(UserError.USAGE, "--page-size must be 1 to 1000, got " + pageSize);
        }
        return pageSize;
    }

    static TableStore store(String option, String connectionString) {
        try {
            return AzureTableStore.fromConnectionString(connectionString); // workers add retries; checks fail fast
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, option + ": " + e.getMessage());
        }
    }

    /** An alias's store from this process's TABLESCAN_ACCOUNT_<ALIAS>_* variables. */
    static TableStore account(Accounts accounts, String alias) {
        try {
            return accounts.get(alias);
        } catch (Accounts.UnknownAccountException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }

    static void tableExists(TableStore store, String table, String what) {
        boolean exists;
        try {
            exists = store.tableExists(table);
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()),
                    "cannot read the " + what + " table " + table + ": " + e.getMessage());
        }
        if (!exists) {
            throw new UserError(UserError.NOT_FOUND, "the " + what + " table " + table + " does not exist");
        }
    }

    static void kafkaReachable(KafkaSettings kafka) {
        var props = kafka.admin();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "8000");
        try (Admin admin = Admin.create(props)) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(8000)).nodes().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new UserError(UserError.UNREACHABLE, "cannot reach Kafka at " + kafka.bootstrapServers());
        }
    }
}
