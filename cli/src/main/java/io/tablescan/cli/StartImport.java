package io.tablescan.cli;

import io.tablescan.backup.BackupStore;
import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.CopyJob;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.table.Accounts;
import java.util.Set;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code start --from DIR | --from-container NAME --from-account ALIAS}: the import command's job, started on the
 * cluster's workers. Every file is checked here first, as import checks it, so a bad export starts nothing.
 */
final class StartImport {
    /** The start options an import takes; any other does not go with --from or --from-container. */
    private static final Set<String> OPTIONS = Set.of("--from", "--from-container", "--from-prefix", "--from-account",
            "--dest-account", "--dest-table", "--write-mode", "--max-write-rate", "--wait", "--timeout", "--kafka");

    private StartImport() {}

    static int run(StartCommand start) {
        for (OptionSpec option : start.command.commandLine().getParseResult().matchedOptions()) {
            String name = option.longestName();
            if (name.equals("--from-connection-string")) {
                throw new UserError(UserError.USAGE, "start takes no --from-connection-string: name the export by "
                        + "--from DIR or by --from-container NAME with --from-account ALIAS, which the workers resolve "
                        + "from their own environment (no connection string travels through Kafka)");
            }
            if (!OPTIONS.contains(name)) {
                throw new UserError(UserError.USAGE, name + " does not go with --from or --from-container, which "
                        + "start an import");
            }
        }
        if (!start.importFrom.given()) {
            throw new UserError(UserError.USAGE, "--from-account names the account of --from-container NAME");
        }
        if (start.target.destTable == null || start.destAccount == null) {
            throw new UserError(UserError.USAGE, "an import needs --dest-table TABLE and --dest-account ALIAS");
        }
        Checks.tableName("--dest-table", start.target.destTable);
        Checks.accountAlias("--dest-account", start.destAccount);
        start.scan.rates.validate();
        start.wait.only(start.await, "--wait");
        Job job = Checks.job(Jobs.named(CopyJob.NAME), new JobRequest("import", true, null, null,
                start.writeMode.options()));
        BackupStore from = start.importFrom.open(start.env);
        ImportCommand.Checked checked = ImportCommand.check(from);
        Accounts local = new Accounts(start.env::get);
        if (local.configured(start.destAccount)) { // else the copy-workers create it on their first write
            ImportCommand.createTable(Checks.account(local, start.destAccount), start.target.destTable,
                    start.writeMode);
        }
        if (checked.batches() == 0) {
            System.out.println("imported 0 rows (the export is empty) into " + start.target.destTable);
            return 0;
        }
        KafkaSettings settings = start.cluster.settings();
        StartCommand.ensureTopics(settings, start.env);
        ClusterImport onWorkers = new ClusterImport(job, start.writeMode.options(), from, start.importFrom, checked,
                start.destAccount, start.target.destTable, start.scan.rates.maxWriteRate);
        return start.startOrAttach(settings, onWorkers.spec(), onWorkers.seeder(), onWorkers.printer(from), false);
    }
}
