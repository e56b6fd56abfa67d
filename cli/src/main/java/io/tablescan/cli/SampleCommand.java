package io.tablescan.cli;

import io.tablescan.spi.TableStoreException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "sample", mixinStandardHelpOptions = true,
        description = "Fills a table with package-catalog-like sample rows (every EDM type, one big partition), "
                + "to try tablescan on.")
final class SampleCommand implements Callable<Integer> {
    @Option(names = "--connection-string", paramLabel = "CS", description = "Connection string of the account to write "
            + "to. Prefer --account: a command line is visible to every user of the machine (ps).")
    String connectionString;

    @Option(names = "--account", paramLabel = "ALIAS",
            description = "Or an account alias: credentials from TABLESCAN_ACCOUNT_<ALIAS>_*, as for copy.")
    String account;

    @Option(names = "--table", required = true, paramLabel = "TABLE", description = "The table to fill, created if missing.")
    String table;

    @Option(names = "--rows", defaultValue = "100000", description = "Rows to write (default ${DEFAULT-VALUE}).")
    int rows;

    @Override
    public Integer call() {
        Checks.tableName("--table", table);
        if (rows < 1) {
            throw new UserError(UserError.USAGE, "--rows must be at least 1");
        }
        if ((connectionString == null) == (account == null)) {
            throw new UserError(UserError.USAGE, "give one of --connection-string and --account");
        }
        var target = account != null
                ? Checks.account(io.tablescan.table.Accounts.fromEnvironment(), Checks.accountAlias("--account", account))
                : Checks.store("--connection-string", connectionString);
        var store = io.tablescan.table.TableStores.forCommand(target);
        long start = System.nanoTime();
        try {
            SampleTable.write(store, table, SampleTable.rows(rows), 16);
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()), "cannot write the sample table " + table + ": " + e.getMessage());
        } catch (IllegalStateException e) {
            // A failed write arrives wrapped by the writers' futures: its status still says denied or unreachable.
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof TableStoreException t) {
                    throw new UserError(UserError.forStatus(t.status()), e.getMessage());
                }
            }
            throw new UserError(UserError.FAILED, e.getMessage());
        }
        System.out.printf("wrote %,d rows to %s in %.1f s%n", rows, table, (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
