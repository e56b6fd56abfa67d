package io.tablescan.cli;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.ChangedOnlyJob;
import io.tablescan.jobs.CopyJob;
import io.tablescan.jobs.MirrorJob;
import io.tablescan.jobs.VerifyJob;
import io.tablescan.runner.BrokerStart;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runner.Timeline;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.TableRef;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "copy", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan copy --source-table=TABLE",
                "        (--source-account=ALIAS | --source-connection-string=CS)",
                "        (--dest-table=TABLE | --to-topic=NAME | --sink=TYPE) [OPTIONS]"},
        description = "Copies a table into another (created if missing), or hands its rows to a sink, with all three "
                + "workers in this process (with --kafka, on the cluster's workers when it has them). Exit 0 only if "
                + "the scan completes with no failures.")
final class CopyCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    JsonOutput output = new JsonOutput();

    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Option(names = "--source-table", required = true, paramLabel = "TABLE",
            description = "The table to copy; it must exist.")
    String sourceTable;

    @Mixin
    TargetOptions target = new TargetOptions();

    @Option(names = "--dest-connection-string", paramLabel = "CS", description = "Connection string of the "
            + "destination table's account, or the sink's (default: the source's account).")
    String destConnectionString;

    @Option(names = "--dest-account", paramLabel = "ALIAS", description = "Or an account alias for the destination "
            + "table or the sink (default: the source's account).")
    String destAccount;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker): on its workers when it has them (see --in-process), else in topics and "
            + "groups of this copy's own, removed when it ends.")
    String kafka;

    @Mixin
    InProcessOption where = new InProcessOption();

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Mixin
    WriteModeOption writeMode = new WriteModeOption();

    @Mixin
    SourceSecondaryOption sourceSecondary = new SourceSecondaryOption();

    @Mixin
    StateOptions state = new StateOptions();

    @Option(names = "--mirror", description = "Also delete the destination table's rows that the source lacks, in "
            + "the range the options select, so that the destination ends equal to the source (not with --since or "
            + "--filter).")
    boolean mirror;

    @Option(names = "--changed-only", description = "Write only the rows missing or different in the destination "
            + "table (compared as verify compares), and delete nothing; --since and --filter allowed.")
    boolean changedOnly;

    @Option(names = "--dry-run", description = "With --mirror: change nothing; list what the mirror would write "
            + "(rows missing or different in the destination) and delete (rows the source lacks).")
    boolean dryRun;

    @Option(names = "--report", paramLabel = "FILE", description = "With --mirror or --changed-only: write every row found missing, "
            + "different or extra to FILE, one JSON object a line (as verify's report).")
    java.nio.file.Path report;

    @Override
    public Integer call() throws Exception {
        return output.around(this::execute);
    }

    private Integer execute() {
        Checks.tableName("--source-table", sourceTable);
        target.validate();
        scan.validate();
        Job job = job();
        DifferenceReport.checkWritable(report);
        Checks.bootstrapServers(kafka);
        if (target.toTopic != null && kafka == null) {
            throw new UserError(UserError.USAGE, "--to-topic needs --kafka HOST:PORT: an embedded broker, and the topic "
                    + "with it, would be gone when copy ends");
        }
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env); // checks TABLESCAN_NAMESPACE
        if (cluster != null) {
            target.checkTopic(cluster.namespace()); // the same rule as start's
        }
        target.checkSinks(env, true); // this process's copy-worker has exactly these sinks
        Accounts configured = new Accounts(env::get); // one store (and credential) per alias
        TableStore source = sourceAccount.store(configured);
        TableStore dest = destConnectionString == null && destAccount == null ? source
                : store(configured, "dest", destConnectionString, destAccount);
        if (target.toTable()) { // before a state folder is opened or a broker started for a copy that cannot run
            Checks.notTheSource(source, sourceTable, dest, target.destTable);
        }
        // A local job keeps its state for a rerun to resume; its embedded broker starts while the tables are
        // checked, closed here if a check fails.
        try (JobState local = kafka == null && !dryRun ? state.open(env, sourceTable + " -> "
                        + (target.toTable() ? target.destTable : "sink")) : null;
                BrokerStart broker = kafka == null && !mirror && !changedOnly ? BrokerStart.begin(local.kafkaDir()) : null) {
            return copy(cluster, source, dest, broker, job, local);
        }
    }

    private int copy(KafkaSettings cluster, TableStore source, TableStore dest, BrokerStart broker, Job job,
            JobState local) {
        if (target.toTable() && (mirror || changedOnly)) {
            Checks.keysInOrder(dest, "destination"); // read, range by range, to compare
        }
        Checks.tableExists(source, sourceTable, "source");
        Checks.queryAccepted(source, sourceTable, scan.rowFilter(), scan.select);
        boolean destExisted = true;
        if (target.toTable() && !dryRun) {
            // Created now, so a credential that may not write is refused at once; deleted again if nothing is written.
            destExisted = mirror || changedOnly || destinationExists(dest, target.destTable);
            // A mirror's extra rows are its work, and a resumed job's rows are its own: not news.
            createDestination(dest, target.destTable, !mirror && !changedOnly && writeMode.replaces()
                    && (local == null || !local.resumable()));
        } else if (dryRun) {
            Checks.tableExists(dest, target.destTable, "destination"); // a dry run creates nothing
        }
        if (kafka != null) {
            Checks.kafkaReachable(cluster);
        }
        Timeline.mark("checks");
        // The scan names the accounts as the user did: by alias, or "source"/"destination" for connection strings.
        String sourceName = sourceAccount.name();
        String destName = destAccount != null ? destAccount : dest == source ? sourceName : "destination";
        if (sourceName.equalsIgnoreCase(destName) && dest != source) { // two accounts that one name would confuse
            sourceName = "source";
            destName = "destination";
        }
        Accounts accounts = new Accounts(name -> null).register(sourceName, source).register(destName, dest);
        // A dry run is a verify whose summary tells what the mirror would do.
        var spec = sourceSecondary.applyTo(scan.applyTo(target.applyTo((dryRun
                ? ScanSpecs.of(Jobs.named(VerifyJob.NAME), Map.of(VerifyJob.DRY_RUN_OF, MirrorJob.NAME))
                : ScanSpecs.of(job, writeMode.options())).from(new TableRef(sourceName, sourceTable)), destName)),
                accounts, sourceName, sourceAccount, new Accounts(env::get)).build();
        boolean aliases = sourceName.equals(sourceAccount.alias) && (dest == source || destName.equals(destAccount));
        if (mirror || changedOnly) {
            return MirrorRun.run(cluster, where.onWorkers(aliases), accounts, env, spec, report, dryRun, local);
        }
        // The scan's record ends with this command (its embedded broker, or its private namespace on a cluster).
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local());
        try (Interrupt interrupt = Interrupt.onSigint()) {
            CopyRun.Outcome outcome = CliRun.run(cluster, where.onWorkers(aliases), accounts, spec,
                    CliRun.options(printer, interrupt, env).withBroker(broker).withState(local).withCapsOf(spec), printer);
            if (outcome.interrupted()) { // said once everything this command started is stopped and deleted
                throw new UserError(UserError.INTERRUPTED, local != null ? StateOptions.resumeHint(local)
                        : ScanSummary.interrupted(outcome.totals(), spec, outcome.partial()));
            }
            int code = printer.summary(outcome.totals());
            boolean deleted = !destExisted && outcome.totals().rowsWritten() == 0 && deleteIfEmpty(dest, target.destTable);
            noRowHint(outcome.totals(), source, deleted);
            return code;
        }
    }

    /**
     * A complete copy that read no row: one line on what looks wrong with the selection, if anything, and that the
     * destination table this copy created was deleted again.
     */
    private void noRowHint(io.tablescan.status.ScanTotals t, TableStore source, boolean destDeleted) {
        if (!t.complete() || t.rowsRead() > 0) {
            return;
        }
        var why = EmptySelection.why(source, sourceTable, scan.filter, scan.since, java.time.Instant.now());
        String notCreated = destDeleted ? "the destination table " + target.destTable + " was not kept (this "
                + "copy created it and wrote no row)" : null;
        if (why.isPresent() || notCreated != null) {
            System.err.println("warning: no row was copied" + why.map(w -> ": " + w).orElse("")
                    + (notCreated == null ? "" : "; " + notCreated));
        }
    }

    /**
     * Deletes the table this copy created if it is still empty, so a copy that wrote nothing leaves no table; true
     * when deleted. Best effort: a store that cannot, or a refusal, keeps it.
     */
    private static boolean deleteIfEmpty(TableStore dest, String table) {
        try {
            var page = dest.query(table, io.tablescan.spi.KeyRange.ALL,
                    new io.tablescan.spi.QueryOptions(1, java.util.List.of(), null), null);
            return page.rows().isEmpty() && page.next() == null && dest.deleteTable(table);
        } catch (TableStoreException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Whether the destination table exists; true when the credential cannot tell (write-only): kept then. */
    private static boolean destinationExists(TableStore dest, String table) {
        try {
            return Checks.retried(dest).tableExists(table);
        } catch (TableStoreException e) {
            return true;
        }
    }

    /** The job the options choose, its own rules checked (MirrorJob's: no --since, no --filter). */
    private Job job() {
        if (changedOnly && (mirror || dryRun)) {
            throw new UserError(UserError.USAGE, (mirror ? "--mirror" : "--dry-run") + " goes without "
                    + "--changed-only" + (mirror ? ": a mirror writes only the changes already" : ""));
        }
        if (!mirror && !changedOnly && (dryRun || report != null)) {
            throw new UserError(UserError.USAGE, (dryRun ? "--dry-run goes with --mirror"
                    : "--report goes with --mirror or --changed-only"));
        }
        String named = mirror ? "--mirror" : changedOnly ? "--changed-only" : "copy";
        writeMode.onlyForCopy(!mirror && !changedOnly, named);
        Job job = Jobs.named(mirror ? MirrorJob.NAME : changedOnly ? ChangedOnlyJob.NAME : CopyJob.NAME);
        return Checks.job(job, new JobRequest(named, target.toTable(), scan.filter, scan.since,
                mirror || changedOnly ? Map.of() : writeMode.options()));
    }

    private static void createDestination(TableStore dest, String table, boolean warnIfHoldsRows) {
        try {
            Checks.retried(dest).createTableIfNotExists(table);
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()),
                    "cannot create the destination table " + table + Checks.at(dest, e) + ": " + e.getMessage());
        }
        if (warnIfHoldsRows) {
            Checks.warnIfHoldsRows(dest, table, System.err);
        }
    }

    /** The store of one side, given by exactly one of a connection string and an alias. */
    static TableStore store(Accounts configured, String side, String connectionString, String alias) {
        if ((connectionString == null) == (alias == null)) {
            throw new UserError(UserError.USAGE, "give one of --" + side + "-connection-string and --" + side + "-account");
        }
        return alias != null ? Checks.account(configured, Checks.accountAlias("--" + side + "-account", alias))
                : Checks.store("--" + side + "-connection-string", connectionString);
    }
}
