package io.tablescan.cli;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.DeleteJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.TableStore;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.io.Console;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

@Command(name = "delete", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan delete --source-table=TABLE",
                "        (--source-account=ALIAS | --source-connection-string=CS)",
                "        (--older-than=AGE|TIME | --filter=ODATA | --partition-prefix=P | --from/--to-partition",
                "         | --all)",
                "        [--dry-run | --yes] [OPTIONS]"},
        modelTransformer = DeleteCommand.Selection.class,
        description = "Deletes the rows of a table the options select, exactly: a scan like count's whose readers "
                + "emit batches of up to 100 deletes of one partition, each row deleted only if it still has the ETag "
                + "read (a row written since is kept and counted as skipped). Exit 0 only if the scan completes "
                + "with no failures.")
final class DeleteCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    JsonOutput output = new JsonOutput();

    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Option(names = "--source-table", required = true, paramLabel = "TABLE",
            description = "The table to delete rows of; it must exist.")
    String sourceTable;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker): on its workers when it has them (see --in-process), else in topics and "
            + "groups of this delete's own, removed when it ends.")
    String kafka;

    @Mixin
    InProcessOption where = new InProcessOption();

    @Mixin
    Choice choice = new Choice();

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Mixin
    StateOptions state = new StateOptions();

    @Override
    public Integer call() throws Exception {
        return output.around(this::execute);
    }

    private Integer execute() {
        Checks.tableName("--source-table", sourceTable);
        Job job = choice.job(scan, "delete");
        Checks.bootstrapServers(kafka);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env); // checks TABLESCAN_NAMESPACE
        TableStore source = sourceAccount.store(new Accounts(env::get));
        Checks.tableExists(source, sourceTable, "source");
        Checks.queryAccepted(source, sourceTable, scan.rowFilter(), null);
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        String sourceName = sourceAccount.name();
        choice.confirm(sourceName, sourceTable, scan);
        Accounts accounts = new Accounts(name -> null).register(sourceName, source);
        ScanSpec spec = scan.applyTo(ScanSpecs.of(job, choice.options(scan)).from(new TableRef(sourceName,
                sourceTable))).build();
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local());
        try (JobState local = cluster == null ? state.open(env, sourceTable) : null;
                Interrupt interrupt = Interrupt.onSigint()) {
            CopyRun.Outcome outcome = CliRun.run(cluster, where.onWorkers(sourceAccount.alias != null), accounts,
                    spec, CliRun.options(printer, interrupt, env).withState(local).withCapsOf(spec), printer);
            ScanTotals totals = outcome.totals();
            if (outcome.interrupted()) {
                throw new UserError(UserError.INTERRUPTED, local != null ? StateOptions.resumeHint(local,
                        DeleteJob.doneLine(totals)) : "interrupted: the delete did not finish ("
                        + DeleteJob.doneLine(totals) + " when stopped)");
            }
            return printer.summary(totals);
        }
    }

    /** What to delete and the confirmation: the delete command's options, and start --delete's. */
    static final class Choice {
        private static final Pattern AGE = Pattern.compile("(\\d{1,6})([dhm])");

        @Option(names = "--older-than", paramLabel = "AGE|TIME", description = "Only the rows the service last "
                + "wrote before this age (30d, 12h, 90m: before now minus that) or TIME (2026-01-01T00:00:00Z or "
                + "2026-01-01), by its Timestamp.")
        String olderThan;

        @Option(names = "--all", description = "Delete every row of the table (no selection is refused without it).")
        boolean all;

        @Option(names = "--dry-run", description = "Count the rows that would be deleted; delete nothing.")
        boolean dryRun;

        @Option(names = "--yes", description = "Delete without asking to type the table name (needed without a "
                + "terminal, as in a script).")
        boolean yes;

        /** The delete job, with --older-than ANDed to --filter, checked by the job's rules; {@code named}: its name. */
        Job job(ScanOptions scan, String named) {
            if (olderThan != null) {
                String before = "Timestamp lt datetime'" + DateTimeFormatter.ISO_INSTANT.format(before(olderThan))
                        + "'";
                scan.filter = scan.filter == null ? before : before + " and (" + scan.filter + ")";
            }
            scan.validate();
            return Checks.job(Jobs.named(DeleteJob.NAME), new JobRequest(named, false, scan.filter, scan.since,
                    options(scan)));
        }

        /** The job's options: dry run, all, and the partitions chosen. */
        Map<String, String> options(ScanOptions scan) {
            Map<String, String> options = new HashMap<>();
            if (dryRun) {
                options.put(DeleteJob.DRY_RUN, "true");
            }
            if (all) {
                options.put(DeleteJob.ALL, "true");
            }
            if (scan.partitionPrefix != null) {
                options.put(DeleteJob.PARTITIONS, "prefix " + scan.partitionPrefix);
            } else if (scan.fromPartition != null || scan.toPartition != null) {
                options.put(DeleteJob.PARTITIONS, "from " + (scan.fromPartition == null ? "the start"
                        : scan.fromPartition) + " to " + (scan.toPartition == null ? "the end" : scan.toPartition));
            }
            return options;
        }

        /**
         * Unless a dry run or --yes: a terminal asks to type the table's name, saying which rows go (its selection);
         * without one, refused.
         */
        void confirm(String account, String table, ScanOptions scan) {
            if (dryRun || yes) {
                return;
            }
            Console console = System.console();
            if (console == null || !Terminal.isInteractive()) {
                throw new UserError(UserError.USAGE, "delete deletes rows for good: pass --yes to confirm without a "
                        + "terminal (or --dry-run to count them)");
            }
            String typed = console.readLine("%s", prompt(account, table, scan));
            if (typed == null || !typed.trim().equals(table)) {
                throw new UserError(UserError.USAGE, "not confirmed: nothing was deleted");
            }
        }

        /**
         * The confirmation's question: which rows of which table, as the selection reads after --older-than joined
         * the filter. Counting them would read the whole selection: --dry-run does that.
         */
        String prompt(String account, String table, ScanOptions scan) {
            List<String> parts = new ArrayList<>();
            if (scan.filter != null) {
                parts.add("filter " + scan.filter);
            }
            String partitions = options(scan).get(DeleteJob.PARTITIONS);
            if (partitions != null) {
                parts.add("partitions " + partitions);
            }
            if (scan.since != null) {
                parts.add("written since " + DateTimeFormatter.ISO_INSTANT.format(scan.since));
            }
            String rows = parts.isEmpty() ? "every row of " + account + "/" + table
                    : "the rows of " + account + "/" + table + " selected by " + String.join("; ", parts);
            return "This deletes " + rows + " (--dry-run counts them first). Type the table name to go on: ";
        }

        /** 30d, 12h, 90m before now, or a time as --since takes it. */
        static Instant before(String value) {
            Matcher m = AGE.matcher(value.trim());
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                Duration age = switch (m.group(2)) {
                    case "d" -> Duration.ofDays(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofMinutes(n);
                };
                return Instant.now().minus(age);
            }
            try {
                return new ScanOptions.Since().convert(value.trim());
            } catch (CommandLine.TypeConversionException e) {
                throw new UserError(UserError.USAGE, "--older-than: '" + value + "' is not an age (30d, 12h, 90m) "
                        + "or a time (2026-01-01T00:00:00Z, 2026-01-01)");
            }
        }
    }

    /** A delete selects rows by --older-than, not --since, and reads keys only: no --select. */
    static final class Selection implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            return spec.remove(spec.findOption("--select")).remove(spec.findOption("--since"));
        }
    }
}
