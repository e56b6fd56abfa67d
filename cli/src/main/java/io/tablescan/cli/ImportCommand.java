package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.Importer;
import io.tablescan.backup.Manifest;
import io.tablescan.table.Accounts;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import io.tablescan.table.TableStore;
import io.tablescan.table.TableStoreException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Restores an export into a table. Every file is checked against the manifest (size, SHA-256, every line, row
 * count) before any row is written, so a bad export writes nothing; then the files are written in parallel with
 * upsert-replace in batches of one partition.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Restores an export (a folder or a Blob container with manifest.json) into a table, created if "
                + "missing. Checks every file's SHA-256 and rows first: a bad export writes nothing.")
final class ImportCommand implements Callable<Integer>, TablescanCommand.ReadsEnvironment {
    @Option(names = "--from", paramLabel = "DIR", description = "The folder of the export.")
    String fromFolder;

    @Option(names = "--from-container", paramLabel = "NAME", description = "Or the Blob container of the export.")
    String fromContainer;

    @Option(names = "--from-prefix", paramLabel = "P", description = "The prefix of the export's blobs in the "
            + "container (default: none).")
    String fromPrefix;

    @Option(names = "--from-connection-string", paramLabel = "CS", description = "Connection string of the "
            + "container's storage account.")
    String fromConnectionString;

    @Option(names = "--from-account", paramLabel = "ALIAS", description = "Or an account alias for the container, "
            + "as for --to-account of export.")
    String fromAccount;

    @Option(names = "--dest-connection-string", paramLabel = "CS", description = "Connection string of the "
            + "destination table's account.")
    String destConnectionString;

    @Option(names = "--dest-account", paramLabel = "ALIAS", description = "Or an account alias for the destination "
            + "table.")
    String destAccount;

    @Option(names = "--dest-table", required = true, paramLabel = "TABLE", description = "The table to restore into, "
            + "created if missing. Rows with the export's keys are replaced, its other rows kept.")
    String destTable;

    @Option(names = "--writers", defaultValue = "8", paramLabel = "N", description = "Files written at once, 1 to 64 "
            + "(default ${DEFAULT-VALUE}).")
    int writers;

    Map<String, String> env = System.getenv();

    @Override
    public void environment(Map<String, String> environment) {
        env = environment;
    }

    @Override
    public Integer call() {
        Checks.tableName("--dest-table", destTable);
        if (writers < 1 || writers > 64) {
            throw new UserError(UserError.USAGE, "--writers must be 1 to 64");
        }
        BackupStore from = BackupLocations.open(env, "from", fromFolder, fromContainer, fromPrefix,
                fromConnectionString, fromAccount);
        TableStore dest = CopyCommand.store(new Accounts(env::get), "dest", destConnectionString, destAccount);
        long started = System.nanoTime();
        Importer importer = new Importer(from, new RetryingTableStore(dest, RetryPolicy.DEFAULT), destTable, writers);
        try {
            Manifest manifest = importer.manifest();
            System.out.printf("checking %s in %s (%s of %s/%s, scan %s)%n",
                    ProgressPrinter.plural(manifest.files().size(), "file"), from.describe(),
                    ProgressPrinter.plural(manifest.totalRows(), "row"), manifest.sourceAccount(),
                    manifest.sourceTable(), manifest.scanId());
            importer.checkAll(manifest);
            try {
                dest.createTableIfNotExists(destTable);
            } catch (TableStoreException e) {
                throw new UserError(UserError.forStatus(e.status()), "cannot create the destination table " + destTable
                        + ": " + e.getMessage());
            }
            Checks.warnIfHoldsRows(dest, destTable, System.err);
            importer.writeAll(manifest);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("imported %s from %s into %s in %.1f s (%,.0f rows/s, %s)%n",
                    ProgressPrinter.plural(importer.rowsWritten(), "row"),
                    ProgressPrinter.plural(manifest.files().size(), "file"), destTable, seconds,
                    importer.rowsWritten() / Math.max(seconds, 1e-3), ProgressPrinter.plural(importer.batches(), "batch"));
            return 0;
        } catch (BackupException e) {
            String written = importer.rowsWritten() == 0 ? "; nothing was written"
                    : "; " + importer.rowsWritten() + " rows were written: run the same import again to finish it";
            BackupException withState = new BackupException(e.kind(), e.getMessage() + written);
            throw BackupLocations.error(withState);
        }
    }
}
