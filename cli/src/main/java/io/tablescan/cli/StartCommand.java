package io.tablescan.cli;

import io.tablescan.backup.BackupStore;
import io.tablescan.control.ScanStarter;
import io.tablescan.schema.ScanSpec;
import io.tablescan.runner.ClusterJob;
import io.tablescan.runner.RunOptions;
import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.ChangedOnlyJob;
import io.tablescan.jobs.CopyJob;
import io.tablescan.jobs.CountJob;
import io.tablescan.jobs.MirrorJob;
import io.tablescan.jobs.VerifyJob;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Seeds a scan into a running cluster of workers and prints its scan id. The workers resolve "
                + "the account aliases with their own TABLESCAN_ACCOUNT_<ALIAS>_* credentials.")
final class StartCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--source-account", paramLabel = "ALIAS", description = "Account alias of the source (every job "
            + "but an import).")
    String sourceAccount;

    @Option(names = "--source-table", paramLabel = "TABLE", description = "The table to scan.")
    String sourceTable;

    @Mixin
    TargetOptions target = new TargetOptions();

    @Option(names = "--dest-account", paramLabel = "ALIAS", description = "Account alias of the destination table "
            + "(required with --dest-table), or of the sink (default with --sink: none).")
    String destAccount;

    @Option(names = "--no-sink-check", description = "Start even if this machine's sinks (built in, and in "
            + "TABLESCAN_PLUGINS) lack the --sink type, because only the workers have its plugin; a type the workers "
            + "lack too parks every batch (default: refused).")
    boolean noSinkCheck;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Option(names = "--wait", description = "Follow the scan's progress until it ends; exit like copy (needs a running ledger).")
    boolean await;

    @Mixin
    WaitOptions wait = new WaitOptions();

    @Option(names = "--verify", description = "Seed a verify instead of a copy: compare the source with --dest-table "
            + "(see verify); with --wait, exit 0 if equal, 7 if different.")
    boolean verify;

    @Option(names = "--mirror", description = "Seed a mirror instead of a copy: also delete the rows of --dest-table "
            + "that the source lacks, in the range the options select (see copy --mirror; not with --since or "
            + "--filter). With --dry-run: change nothing, and with --wait list what the mirror would do.")
    boolean mirror;

    @Option(names = "--changed-only", description = "Seed a copy of the rows missing or different in --dest-table "
            + "only, deleting nothing (see copy --changed-only).")
    boolean changedOnly;

    @Option(names = "--delete", description = "Seed a delete instead of a copy: delete the rows of the source the "
            + "options select (see delete: --older-than, --all, --dry-run, --yes; no target).")
    boolean delete;

    @Option(names = "--count", description = "Seed a count instead of a copy: count the rows and partitions the "
            + "options select (see count; no target, no --select); with --wait, its summary gives the count.")
    boolean count;

    @Mixin
    DeleteCommand.Choice deleting = new DeleteCommand.Choice();

    @Option(names = "--report", paramLabel = "FILE", description = "With --wait and --verify, --mirror or "
            + "--changed-only: write every difference to FILE, one JSON object a line (default: none).")
    java.nio.file.Path report;

    @Mixin
    WriteModeOption writeMode = new WriteModeOption();

    @Mixin
    SourceSecondaryOption sourceSecondary = new SourceSecondaryOption();

    /** The options of the job the flags choose (a mirror's dry run: the job it is of; a copy: its write mode). */
    private Map<String, String> jobOptions = Map.of();

    @Mixin
    ExportTargetOptions export = new ExportTargetOptions();

    @Mixin
    FileFormatOption format = new FileFormatOption();

    @Mixin
    ExportSourceOptions importFrom = new ExportSourceOptions();

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        if (importFrom.given() || importFrom.connectionString != null || importFrom.account != null) {
            return StartImport.run(this);
        }
        if (sourceAccount == null || sourceTable == null) {
            throw new UserError(UserError.USAGE, "start needs --source-account ALIAS and --source-table TABLE (or "
                    + "--from DIR | --from-container NAME for an import)");
        }
        Checks.tableName("--source-table", sourceTable);
        if (export.folder != null || export.container != null) {
            export.format = format.value();
            return export();
        }
        if (format.format != null) {
            throw new UserError(UserError.USAGE, "--format is for an export: give --to DIR or --to-container NAME");
        }
        Job sourceOnly = delete ? deleteJob() : count ? countJob() : null; // a job on the source alone
        if (sourceOnly == null) {
            target.validate();
            scan.validate();
        }
        Checks.accountAlias("--source-account", sourceAccount);
        if (destAccount != null) {
            Checks.accountAlias("--dest-account", destAccount);
        } else if (target.toTable()) {
            throw new UserError(UserError.USAGE, "--dest-table needs --dest-account ALIAS");
        }
        wait.only(await, "--wait");
        Job job = sourceOnly != null ? sourceOnly : job();
        if (report != null && !(job.readsDestination() && await)) {
            throw new UserError(UserError.USAGE, "--report goes with --wait and --verify, --mirror or --changed-only");
        }
        DifferenceReport.checkWritable(report);
        if (sourceOnly == null) {
            target.checkSinks(env, !noSinkCheck); // the workers are elsewhere: this machine's sinks are a check of the type
        }
        Accounts local = new Accounts(env::get);
        sourceSecondary.check(local, sourceAccount);
        if (target.toTable()) {
            Checks.notTheSource(local, sourceAccount, sourceTable, destAccount, target.destTable);
        }
        if (sourceOnly == null) {
            target.checkTopic(cluster.configured().namespace());
        }
        topicPartitions(env); // malformed settings are refused before anything is done
        topicReplication(env);
        KafkaSettings settings = cluster.settings();
        // When this machine has the source's credentials too, a missing source table is caught now.
        if (local.configured(sourceAccount)) {
            Checks.tableExists(Checks.account(local, sourceAccount), sourceTable, "source");
        }
        if (target.toTable() && local.configured(destAccount) && !job.readsDestination()
                && writeMode.replaces()) {
            Checks.warnIfHoldsRows(Checks.account(local, destAccount), target.destTable, System.err);
        }
        if (delete) {
            deleting.confirm(sourceAccount, sourceTable, scan);
        }
        ensureTopics(settings, env);
        var spec = sourceOnly != null ? scan.applyTo(ScanSpecs.of(job, delete ? deleting.options(scan) : Map.of())
                .from(new TableRef(sourceAccount, sourceTable))).build()
                : scan.applyTo(target.applyTo(ScanSpecs.of(job, jobOptions)
                .from(new TableRef(sourceAccount, sourceTable)), destAccount)).sourceSecondary(sourceSecondary.secondary)
                .build();
        ProgressPrinter printer = new ProgressPrinter(System.out);
        return startOrAttach(settings, spec, ScanStarter::start, printer, job.readsDestination());
    }

    /**
     * Seeds {@code spec} unless the same job runs already (the ledger's scans), prints its scan id and, with --wait,
     * follows it to its summary; Ctrl-C stops only the following.
     */
    int startOrAttach(KafkaSettings settings, ScanSpec spec, RunOptions.Seeder seeder, ProgressPrinter printer,
            boolean readsDestination) {
        try (ScanStatusReader reader = new ScanStatusReader(settings)) {
            Optional<ScanTotals> running = ClusterJob.running(reader, spec);
            String scanId = running.map(ScanTotals::scanId).orElse(spec.getScanId());
            if (running.isPresent()) {
                System.err.println("tablescan: the same job is running on the cluster as scan " + scanId
                        + (await ? ": following it instead of starting another" : "; no other was started"));
            } else {
                seeder.seed(settings, spec);
            }
            System.out.println(scanId);
            if (!await) {
                return 0;
            }
            printer.hints(ProgressPrinter.Hints.cluster(settings.bootstrapServers()));
            ScanTotals totals = wait.await(reader, scanId, ScanTotals::ended, printer);
            if (readsDestination && totals.ended()) { // the differences it found, for its summary
                printer.differences(DifferenceReport.read(settings, scanId, report));
            }
            return printer.summary(totals);
        }
    }

    /** An export (--to DIR or --to-container): the export command's job, with this command its client. */
    private int export() {
        if (verify || mirror || changedOnly || delete || count || target.destTable != null || target.toTopic != null
                || target.sinkType != null || destAccount != null || report != null) {
            throw new UserError(UserError.USAGE, "--to and --to-container start an export: no other job, "
                    + "--dest-table, --to-topic, --sink or --report with them");
        }
        if (export.connectionString != null) {
            throw new UserError(UserError.USAGE, "start needs --to-account ALIAS with --to-container: the workers "
                    + "resolve the alias from their own environment (no connection string travels through Kafka)");
        }
        Checks.accountAlias("--source-account", sourceAccount);
        scan.validate();
        wait.only(await, "--wait");
        BackupStore store = export.open(env);
        KafkaSettings settings = cluster.settings();
        ensureTopics(settings, env);
        ScanSpec draft = scan.applyTo(ScanSpecs.copy().from(new TableRef(sourceAccount, sourceTable))).build();
        if (!await) {
            return ClusterExport.startOnly(settings, store, export, draft, sourceAccount, env);
        }
        ProgressPrinter printer = new ProgressPrinter(System.out).intoPrivateTopic("export to " + store.describe(), true);
        try (Interrupt interrupt = Interrupt.onSigint()) {
            return ClusterExport.run(settings, store, export, draft, sourceAccount, env, printer, interrupt);
        }
    }

    /** A count (--count): no target, no other job, no --select; its selection checked as the count command's. */
    private Job countJob() {
        if (verify || mirror || changedOnly || deleting.olderThan != null || deleting.all || deleting.dryRun
                || deleting.yes || target.destTable != null || target.toTopic != null || target.sinkType != null
                || destAccount != null) {
            throw new UserError(UserError.USAGE, "--count takes no other job and no target: it counts rows of the "
                    + "source");
        }
        if (scan.select != null) {
            throw new UserError(UserError.USAGE, "--select does not go with --count: a count reads the keys only");
        }
        scan.validate();
        writeMode.onlyForCopy(false, "--count");
        return Checks.job(Jobs.named(CountJob.NAME), new JobRequest("--count", false, scan.filter, scan.since));
    }

    /** A delete (--delete): no target, no other job; its selection checked as the delete command's. */
    private Job deleteJob() {
        writeMode.onlyForCopy(false, "--delete");
        if (sourceSecondary.secondary) {
            throw new UserError(UserError.USAGE, "--source-secondary goes without --delete: a delete writes the source, "
                    + "and the secondary takes no write");
        }
        if (count || verify || mirror || changedOnly || target.destTable != null || target.toTopic != null
                || target.sinkType != null || destAccount != null) {
            throw new UserError(UserError.USAGE, "--delete takes no other job and no target: it deletes rows of the "
                    + "source");
        }
        return deleting.job(scan, "--delete");
    }

    /** The job the flags choose, checked by its own rules: the same as the local commands'. */
    private Job job() {
        if (deleting.olderThan != null || deleting.all || (deleting.dryRun && !mirror) || deleting.yes) {
            throw new UserError(UserError.USAGE, "--older-than, --all and --yes go with --delete, --dry-run with "
                    + "--delete or --mirror");
        }
        if ((verify ? 1 : 0) + (mirror ? 1 : 0) + (changedOnly ? 1 : 0) > 1) {
            throw new UserError(UserError.USAGE, "give at most one of --verify, --mirror and --changed-only");
        }
        String name = verify ? VerifyJob.NAME : mirror ? MirrorJob.NAME : changedOnly ? ChangedOnlyJob.NAME
                : CopyJob.NAME;
        writeMode.onlyForCopy(name.equals(CopyJob.NAME), "--" + name);
        Job job = Checks.job(Jobs.named(name), new JobRequest(name.equals(CopyJob.NAME) ? "start" : "--" + name,
                target.toTable(), scan.filter, scan.since, writeMode.options()));
        if (deleting.dryRun) { // a verify whose summary tells what the mirror would do, as copy --mirror --dry-run's
            jobOptions = Map.of(VerifyJob.DRY_RUN_OF, MirrorJob.NAME);
            return Jobs.named(VerifyJob.NAME);
        }
        jobOptions = writeMode.options();
        return job;
    }

    /** Creates the cluster's pipeline topics if missing, with the environment's partitions and replication. */
    static void ensureTopics(KafkaSettings settings, Map<String, String> env) {
        try (Admin admin = settings.newAdmin()) {
            Topics.ensure(admin, settings.namespace(), topicPartitions(env), topicReplication(env), Duration.ofSeconds(60));
        }
    }

    /** The partitions of the topics a command creates (TABLESCAN_TOPIC_PARTITIONS); a malformed value is exit 2. */
    static int topicPartitions(Map<String, String> env) {
        try {
            return WorkerSettings.positive(env, WorkerSettings.TOPIC_PARTITIONS, Topics.DEFAULT_PARTITIONS);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }

    /** Their replication (TABLESCAN_TOPIC_REPLICATION), the cluster's choice when unset; a malformed value is exit 2. */
    static Optional<Short> topicReplication(Map<String, String> env) {
        try {
            return WorkerSettings.topicReplication(env);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }
}
