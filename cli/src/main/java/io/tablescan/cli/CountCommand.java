package io.tablescan.cli;

import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.CountJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

@Command(name = "count", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan count --source-table=TABLE",
                "        (--source-account=ALIAS | --source-connection-string=CS) [OPTIONS]"},
        modelTransformer = CountCommand.KeysOnly.class,
        description = "Counts the rows and partitions of a table, or of the rows the options select, exactly: a scan "
                + "like copy's that reads the keys only and writes nothing, with all three workers in this process "
                + "(with --kafka, on the cluster's workers when it has them). "
                + "Exit 0 only if the scan completes with no failures (then the count is exact).")
final class CountCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Option(names = "--source-table", required = true, paramLabel = "TABLE",
            description = "The table to count; it must exist.")
    String sourceTable;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker): on its workers when it has them (see --in-process), else in topics and "
            + "groups of this count's own, removed when it ends.")
    String kafka;

    @Mixin
    InProcessOption where = new InProcessOption();

    @Option(names = "--json", description = "Print only the result on standard output, as one JSON object "
            + "(progress and summary go to standard error).")
    boolean json;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Mixin
    SourceSecondaryOption sourceSecondary = new SourceSecondaryOption();

    @Mixin
    StateOptions state = new StateOptions();

    @Override
    public Integer call() {
        Checks.tableName("--source-table", sourceTable);
        scan.validate();
        Checks.job(Jobs.named(CountJob.NAME), new JobRequest("count", false, scan.filter, scan.since));
        Checks.bootstrapServers(kafka);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env); // checks TABLESCAN_NAMESPACE
        Accounts configured = new Accounts(env::get);
        TableStore source = sourceAccount.store(configured);
        Checks.tableExists(source, sourceTable, "source");
        Checks.queryAccepted(source, sourceTable, scan.rowFilter(), null);
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        String sourceName = sourceAccount.name();
        Accounts accounts = new Accounts(name -> null).register(sourceName, source);
        ScanSpec spec = sourceSecondary.applyTo(scan.applyTo(ScanSpecs.count().from(new TableRef(sourceName,
                sourceTable))), accounts, sourceName, sourceAccount, configured).build();
        ProgressPrinter printer = new ProgressPrinter(json ? System.err : System.out)
                .hints(ProgressPrinter.Hints.local());
        try (JobState local = cluster == null ? state.open(env, sourceTable) : null;
                Interrupt interrupt = Interrupt.onSigint()) {
            CopyRun.Outcome outcome = CliRun.run(cluster, where.onWorkers(sourceAccount.alias != null), accounts,
                    spec, CliRun.options(printer, interrupt, env).withState(local).withCapsOf(spec), printer);
            ScanTotals totals = outcome.totals();
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, local != null ? StateOptions.resumeHint(local)
                        : "interrupted: the count did not finish ("
                        + ProgressPrinter.plural(totals.rowsRead(), "row") + " in "
                        + ProgressPrinter.plural(totals.partitions(), "partition") + " counted when stopped)");
            }
            int code = printer.summary(totals);
            if (totals.complete() && totals.rowsRead() == 0) {
                EmptySelection.why(source, sourceTable, scan.filter, scan.since, java.time.Instant.now())
                        .ifPresent(why -> System.err.println("warning: no row was counted: " + why));
            }
            if (json) {
                System.out.println(json(totals));
            }
            return code;
        }
    }

    /** A count reads the keys only: the shared row options without --select, which would choose properties. */
    static final class KeysOnly implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            return spec.remove(spec.findOption("--select"));
        }
    }

    /** The result for scripts: exact only when completed. Scan ids, table names and states need no escaping. */
    static String json(ScanTotals t) {
        return String.format("{\"scanId\":\"%s\",\"table\":\"%s\",\"state\":\"%s\",\"exact\":%b,\"rows\":%d,"
                + "\"partitions\":%d}", t.scanId(), t.spec() == null ? "" : t.spec().getSource().getTable(), t.state(),
                t.state() == ScanState.COMPLETED, t.rowsRead(), t.partitions());
    }
}
