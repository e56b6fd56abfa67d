package io.tablescan.cli;

import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.VerifyJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "verify", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan verify --source-table=TABLE",
                "        (--source-account=ALIAS | --source-connection-string=CS)",
                "        (--dest-table=TABLE | --from=DIR | --from-container=NAME) [OPTIONS]",
                "       tablescan verify --from-set=ID (--from=DIR | --from-container=NAME)",
                "        (--source-account=ALIAS | --source-connection-string=CS) [--source-table=TABLE] [OPTIONS]"},
        description = "Compares a table with its copy, row by row and property by property (Timestamp and ETag "
                + "aside): a scan like copy's that reads each range of both tables once and writes nothing, with all "
                + "three workers in this process (with --kafka, on the cluster's workers when it has them). With "
                + "--from or --from-container instead of --dest-table, compares an export with its source table "
                + "(the rows the export selected). Exit 0 only if the tables (the rows the options select) are equal, "
                + "7 if they differ.")
final class VerifyCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    JsonOutput output = new JsonOutput();

    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Option(names = "--source-table", paramLabel = "TABLE", description = "The original table (with --from-set: "
            + "only this table of the set; default all).")
    String sourceTable;

    @Option(names = "--from-set", paramLabel = "ID", description = "Compare each table of backup set ID (in --from "
            + "or --from-container) with the live table, as the set restores it.")
    String fromSet;

    @Option(names = "--dest-table", paramLabel = "TABLE", description = "The copy to check.")
    String destTable;

    @Mixin
    ExportSourceOptions from = new ExportSourceOptions(); // or an export to check against the source

    @Option(names = "--dest-connection-string", paramLabel = "CS", description = "Connection string of the copy's "
            + "account (default: the source's account).")
    String destConnectionString;

    @Option(names = "--dest-account", paramLabel = "ALIAS", description = "Or an account alias for the copy's "
            + "account (default: the source's account).")
    String destAccount;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker): on its workers when it has them (see --in-process), else in topics and "
            + "groups of this verify's own, removed when it ends.")
    String kafka;

    @Mixin
    InProcessOption where = new InProcessOption();

    @Option(names = "--report", paramLabel = "FILE", description = "Write every difference to FILE, one JSON object "
            + "a line (kind, keys, and for a different row each differing property in the service's wire form).")
    Path report;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Mixin
    SourceSecondaryOption sourceSecondary = new SourceSecondaryOption();

    @Mixin
    StateOptions state = new StateOptions();

    @Override
    public Integer call() throws Exception {
        return output.around(this::execute);
    }

    private Integer execute() {
        if (output.json && (fromSet != null || from.given())) { // its staging scans' figures are not the comparison's
            throw new UserError(UserError.USAGE, "--json is not available with --from or --from-set yet: read the "
                    + "summary (exit 0: equal, 7: different)");
        }
        if (fromSet != null) {
            if (!from.given() || destTable != null || destConnectionString != null || destAccount != null) {
                throw new UserError(UserError.USAGE, "--from-set goes with --from DIR or --from-container NAME (where "
                        + "the sets are), not with --dest-table");
            }
            scan.validate();
            Checks.bootstrapServers(kafka);
            return SetVerify.run(from.open(env), fromSet, sourceTable, sourceAccount, scan,
                    kafka == null ? null : ClusterOptions.environment(kafka, env), env, report);
        }
        if (sourceTable == null) {
            throw new UserError(UserError.USAGE, "give --source-table TABLE");
        }
        Checks.tableName("--source-table", sourceTable);
        boolean export = from.given();
        if ((destTable == null) != export) {
            throw new UserError(UserError.USAGE, "give one of --dest-table TABLE (a copy) and --from DIR or "
                    + "--from-container NAME (an export)");
        }
        if (!export) {
            Checks.tableName("--dest-table", destTable);
        } else if (destConnectionString != null || destAccount != null) {
            throw new UserError(UserError.USAGE, "--dest-connection-string and --dest-account go with --dest-table, "
                    + "not with an export");
        }
        // An export is compared as a table is: the same rules.
        Checks.job(Jobs.named(VerifyJob.NAME), new JobRequest("verify", true, scan.filter, scan.since));
        scan.validate();
        DifferenceReport.checkWritable(report);
        Checks.bootstrapServers(kafka);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env);
        if (export) {
            try (JobState local = cluster == null ? state.open(env, sourceTable + " = export") : null) {
                return new ExportVerify(from.open(env), report).run(sourceAccount, sourceTable, scan, cluster, env, local);
            }
        }
        Accounts configured = new Accounts(env::get);
        TableStore source = sourceAccount.store(configured);
        TableStore dest = destConnectionString == null && destAccount == null ? source
                : CopyCommand.store(configured, "dest", destConnectionString, destAccount);
        Checks.notTheSource(source, sourceTable, dest, destTable);
        Checks.keysInOrder(dest, "destination"); // before any request: both sides are read
        Checks.tableExists(source, sourceTable, "source");
        Checks.tableExists(dest, destTable, "destination");
        Checks.queryAccepted(source, sourceTable, scan.rowFilter(), scan.select);
        Checks.queryAccepted(dest, destTable, scan.rowFilter(), scan.select);
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        String sourceName = sourceAccount.name();
        String destName = destAccount != null ? destAccount : dest == source ? sourceName : "destination";
        if (sourceName.equalsIgnoreCase(destName) && dest != source) {
            sourceName = "source";
            destName = "destination";
        }
        Accounts accounts = new Accounts(name -> null).register(sourceName, source).register(destName, dest);
        ScanSpec spec = sourceSecondary.applyTo(scan.applyTo(ScanSpecs.verify().from(new TableRef(sourceName,
                sourceTable)).to(new TableRef(destName, destTable))), accounts, sourceName, sourceAccount, configured)
                .build();
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local());
        AtomicReference<DifferenceReport> found = new AtomicReference<>();
        try (JobState local = cluster == null ? state.open(env, sourceTable + " = " + destTable) : null;
                Interrupt interrupt = Interrupt.onSigint()) {
            boolean aliases = sourceName.equals(sourceAccount.alias) && (dest == source || destName.equals(destAccount));
            CopyRun.Outcome outcome = CliRun.run(cluster, where.onWorkers(aliases), accounts, spec,
                    CliRun.options(printer, interrupt, env).withState(local).withCapsOf(spec) // a resumed scan is the first run's
                    .withEnded((kafka, totals) -> found.set(DifferenceReport.read(kafka, totals.scanId(), report))),
                    printer);
            ScanTotals totals = outcome.totals();
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, local != null ? StateOptions.resumeHint(local)
                        : "interrupted: the verify did not finish ("
                        + ProgressPrinter.plural(totals.rowsRead(), "row") + " compared when stopped)");
            }
            return summary(printer, totals, found.get());
        }
    }

    /** The scan's summary, the differences, and the verdict (VerifyJob's); the exit code: 0 equal, 7 different. */
    static int summary(ProgressPrinter printer, ScanTotals t, DifferenceReport found) {
        return printer.differences(found).summary(t);
    }
}
