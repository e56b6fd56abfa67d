package io.tablescan.cli;

import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import picocli.CommandLine.Option;

/** The account a scan reads, as copy and count take it: a connection string or an alias. */
final class SourceAccountOptions {
    @Option(names = "--source-connection-string", paramLabel = "CS", description = "Connection string of the source "
            + "account. Prefer --source-account: a command line is visible to every user of the machine (ps).")
    String connectionString;

    @Option(names = "--source-account", paramLabel = "ALIAS",
            description = "Or an account alias: credentials from TABLESCAN_ACCOUNT_<ALIAS>_* (connection string, "
                    + "endpoint with SAS token, or endpoint alone for Entra ID).")
    String alias;

    /** The source's store; one line and exit 2 unless exactly one of the two is given. */
    TableStore store(Accounts configured) {
        return CopyCommand.store(configured, "source", connectionString, alias);
    }

    /** The name the scan gives the account: the alias typed, or "source" for a connection string. */
    String name() {
        return alias != null ? alias : "source";
    }

    /** The account as a manifest or a result names it: the alias, or the AccountName a connection string names. */
    String accountName() {
        String name = connectionString == null ? null
                : io.tablescan.azure.ConnectionString.accountName(connectionString);
        return name != null ? name : name();
    }
}
