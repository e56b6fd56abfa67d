package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ClusterImportFiles;
import io.tablescan.backup.ImportSeeder;
import io.tablescan.runner.ClusterJob;
import io.tablescan.backup.FileFormat;
import io.tablescan.backup.Importer;
import io.tablescan.backup.Manifest;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import picocli.CommandLine.Command;
import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.CopyJob;
import io.tablescan.rate.Direction;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Restores an export into a table. Every file is checked against the manifest (size, SHA-256, every line, row
 * count) before any row is written, so a bad export writes nothing; then the rows go to the workers as entity
 * batches of one partition, which the copy-worker writes with upsert-replace and the ledger counts, as a copy's.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Restores an export (a folder or a Blob container with manifest.json) into a table, created if "
                + "missing. Checks every file's SHA-256 and rows first: a bad export writes nothing.")
final class ImportCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    JsonOutput output = new JsonOutput();

    /** Files checked at once: reading and hashing them is I/O and one core each. */
    private static final int CHECKERS = 4;

    @Mixin
    ExportSourceOptions export = new ExportSourceOptions();

    @Mixin
    StateOptions state = new StateOptions();

    @Mixin
    InProcessOption where = new InProcessOption();

    @Option(names = "--dest-connection-string", paramLabel = "CS", description = "Connection string of the "
            + "destination table's account.")
    String destConnectionString;

    @Option(names = "--dest-account", paramLabel = "ALIAS", description = "Or an account alias for the destination "
            + "table.")
    String destAccount;

    @Option(names = "--dest-table", required = true, paramLabel = "TABLE", description = "The table to restore into, "
            + "created if missing. Rows with the export's keys are replaced (see --write-mode), its other rows kept.")
    String destTable;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker), in topics and groups of this import's own, removed when it ends.")
    String kafka;

    @Mixin
    WriteModeOption writeMode = new WriteModeOption();

    @Option(names = "--format", paramLabel = "FORMAT", description = "The files' format, jsonl or parquet (default: "
            + "the manifest's). Where there is no manifest.json, every *.jsonl.gz or *.parquet file directly in the "
            + "folder or under the prefix is imported: files another tool wrote, with PartitionKey and RowKey.")
    String format;

    @Option(names = "--max-write-rate", paramLabel = "ROWS_PER_S", description = "At most this many rows/s written to "
            + "the table, by all the import's workers together; change it while it runs with `tablescan throttle`.")
    Long maxWriteRate;

    @Override
    public Integer call() throws Exception {
        return output.around(this::execute);
    }

    private Integer execute() {
        output.job("import"); // its scan reads the files' rows from a staging topic
        Checks.tableName("--dest-table", destTable);
        if (maxWriteRate != null && maxWriteRate < 1) {
            throw new UserError(UserError.USAGE, "--max-write-rate must be at least 1 row per second");
        }
        Job job = Checks.job(Jobs.named(CopyJob.NAME), new JobRequest("import", true, null, null,
                writeMode.options()));
        Checks.bootstrapServers(kafka);
        BackupStore from = export.open(env);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env);
        TableStore dest = CopyCommand.store(new Accounts(env::get), "dest", destConnectionString, destAccount);
        FileFormat fileFormat = format == null ? null : FileFormatOption.parse(format);
        Checked checked = check(from, "nothing was written", fileFormat);
        long batches = checked.batches();
        if (batches == 0) {
            createTable(dest, destTable, writeMode);
            System.out.println("imported 0 rows (the export is empty) into " + destTable);
            return 0;
        }
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        Manifest manifest = checked.manifest();
        // On a cluster's workers when it has them and they resolve the export and the table by alias.
        // (files without a manifest: here, since the workers would look for one)
        boolean onCluster = cluster != null && !manifest.ofOtherFiles() && where.onWorkers(destAccount != null
                && (export.folder != null || export.account != null)) && ClusterJob.hasWorkers(cluster);
        ClusterImport onWorkers = onCluster ? new ClusterImport(job, writeMode.options(), from, export, checked,
                destAccount, destTable, maxWriteRate) : null;
        // The local workers resolve both names to the destination: an import's batches read nothing.
        String destName = destAccount != null ? destAccount : "destination";
        Accounts accounts = new Accounts(name -> null).register(destName, dest).register("export", dest);
        ScanSpec spec = onCluster ? onWorkers.spec() : ClusterImport.spec(job, writeMode.options(), "export", manifest,
                destName, destTable, maxWriteRate);
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local())
                .fromFiles(from.describe()).expecting(manifest.totalRows());
        long batchCount = batches;
        try (JobState local = cluster == null ? state.open(env, from.describe() + " -> " + destTable) : null;
                Interrupt interrupt = Interrupt.onSigint()) {
            // The same import running on the cluster (followed, not started) or resumed here: the rows are its own.
            boolean attaching = onCluster && onWorkers.running(cluster);
            createTable(dest, destTable, attaching || local != null && local.resumable() ? null : writeMode);
            if (!attaching) {
                System.out.printf("writing %s in %,d batches through the workers%n",
                        ProgressPrinter.plural(manifest.totalRows(), "row"), batches);
            }
            CopyRun.Outcome outcome;
            if (onCluster) {
                printer.hints(ProgressPrinter.Hints.cluster(cluster.bootstrapServers()));
                System.err.println("tablescan: on the workers of the cluster at " + cluster.bootstrapServers()
                        + " (namespace " + cluster.namespace() + "): the import goes on if this command is killed; "
                        + "Ctrl-C cancels it");
                outcome = ClusterJob.run(cluster, spec, CliRun.options(printer, interrupt, env)
                        .withSeeder(onWorkers.seeder())).outcome();
            } else {
                outcome = CopyRun.runHere(cluster, accounts, spec, CliRun.options(printer, interrupt, env)
                        .withState(local).withCapsOf(spec).withSeeder((k, s) -> ImportSeeder.seed(k, s, from, manifest, batchCount,
                                manifest.totalRows())));
            }
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, local != null ? StateOptions.resumeHint(local)
                        : "interrupted: table " + destTable + " holds part of the import; run the same import again "
                        + "to finish it: it is idempotent");
            }
            int code = printer.summary(outcome.totals());
            if (code == 0) {
                System.out.printf("imported %s into %s%n", ProgressPrinter.plural(outcome.totals().rowsWritten(), "row"),
                        destTable);
            }
            return code;
        } catch (BackupException e) {
            throw BackupLocations.error(new BackupException(e.kind(), e.getMessage() + "; table " + destTable
                    + " may hold part of the import: run the same import again"));
        }
    }

    /** An export whose every file was checked: its manifest, and how many batches its rows make. */
    record Checked(Manifest manifest, long batches) {}

    /** Checks every file against the manifest before any row is written: a bad export is one line, exit 1. */
    static Checked check(BackupStore from) {
        return check(from, "nothing was written", null);
    }

    /**
     * The manifest and every file checked (size, SHA-256, every line, row count); {@code nothing} ends a failure;
     * {@code format} as {@link Importer#manifest(FileFormat)} takes it.
     */
    static Checked check(BackupStore from, String nothing, FileFormat format) {
        Importer importer = new Importer(from, CHECKERS);
        try {
            Manifest manifest = importer.manifest(format);
            System.out.printf(manifest.ofOtherFiles() ? "checking %s in %s (%s; no manifest: every *%s file)%n"
                    : "checking %s in %s (%s of %s/%s, scan %s)%n",
                    ProgressPrinter.plural(manifest.files().size(), "file"), from.describe(),
                    ProgressPrinter.plural(manifest.totalRows(), "row"), manifest.ofOtherFiles()
                            ? manifest.fileFormat().extension() : manifest.sourceAccount(),
                    manifest.sourceTable(), manifest.scanId());
            return new Checked(manifest, importer.checkAll(manifest));
        } catch (BackupException e) {
            throw BackupLocations.error(new BackupException(e.kind(), e.getMessage() + "; " + nothing));
        }
    }

    /**
     * Creates the destination table if missing, and warns when a replacing import goes into rows already there (no
     * warning without a {@code writeMode}: the rows are the import's own).
     */
    static void createTable(TableStore dest, String destTable, WriteModeOption writeMode) {
        try {
            Checks.retried(dest).createTableIfNotExists(destTable);
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()), "cannot create the destination table " + destTable
                    + Checks.at(dest, e) + ": " + e.getMessage());
        }
        if (writeMode != null && writeMode.replaces()) {
            Checks.warnIfHoldsRows(dest, destTable, System.err);
        }
    }
}
