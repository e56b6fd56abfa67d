package io.tablescan.cli;

import io.tablescan.backup.TableProfile;
import io.tablescan.backup.TopicExporter;
import io.tablescan.runner.ClusterJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a table holds, from one scan: an export's stage 1 (every row published exactly once into a private topic),
 * then the topic read into a {@link TableProfile} instead of files, which is printed and the topic deleted.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan profile --source-table=TABLE",
                "        (--source-account=ALIAS | --source-connection-string=CS) [OPTIONS]"},
        description = "Reports what a table holds, from one scan of every row: each property's EDM types with their "
                + "counts, fill rate and sizes; rows, bytes and partitions; the largest partitions; the key space in "
                + "about 1,000 buckets; rows near the service's limits. Exit 0 only if the scan completes.")
final class ProfileCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Option(names = "--source-table", required = true, paramLabel = "TABLE", description = "The table to profile; it "
            + "must exist.")
    String sourceTable;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker), in topics and groups of this profile's own, removed when it ends.")
    String kafka;

    @Mixin
    JsonOutput output = new JsonOutput();

    /** The profile for --json, once made. */
    private Map<String, Object> result = Map.of();

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Mixin
    InProcessOption where = new InProcessOption();

    @Override
    public Integer call() throws Exception {
        return output.aroundResult(this::execute, () -> result);
    }

    private Integer execute() {
        Checks.tableName("--source-table", sourceTable);
        scan.validate();
        Checks.bootstrapServers(kafka);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env);
        TableStore source = sourceAccount.store(new Accounts(env::get));
        Checks.tableExists(source, sourceTable, "source");
        Checks.queryAccepted(source, sourceTable, scan.rowFilter(), scan.select);
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        String sourceName = sourceAccount.name();
        Accounts accounts = new Accounts(name -> null).register(sourceName, source);
        ScanSpec draft = scan.applyTo(ScanSpecs.copy().from(new TableRef(sourceName, sourceTable))).build();
        String role = "profile-" + draft.getScanId();
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local())
                .intoPrivateTopic("profile of " + sourceTable, false).readsOnly(); // it writes nothing of the user's
        try (Interrupt interrupt = Interrupt.onSigint()) {
            if (cluster != null && where.onWorkers(sourceAccount.alias != null) && ClusterJob.hasWorkers(cluster)) {
                return onWorkers(cluster, draft, printer, interrupt);
            }
            return CopyRun.runHere(cluster, accounts, kafka -> {
                String topic = kafka.namespace().topic(role);
                ExportCommand.createTopic(kafka, topic, cluster == null ? Topics.LOCAL_PARTITIONS
                        : Topics.DEFAULT_PARTITIONS);
                return staged(draft, topic);
            }, CliRun.options(printer, interrupt, env).withCapsOf(draft), (kafka, outcome) -> {
                String topic = kafka.namespace().topic(role);
                try {
                    return report(kafka, topic, outcome, printer);
                } finally {
                    ExportCommand.deleteTopic(kafka, topic);
                }
            });
        }
    }

    /**
     * On the cluster's workers: the scan stages the rows in a topic of the cluster's namespace, and this command, its
     * client, reads them once the scan completed, then deletes the topic (Ctrl-C cancels the scan; a command killed
     * outright leaves the scan to end, and the topic its first line names to delete by hand).
     */
    private int onWorkers(KafkaSettings cluster, ScanSpec draft, ProgressPrinter printer, Interrupt interrupt) {
        String topic = cluster.namespace().topic("profile-" + draft.getScanId());
        ExportCommand.createTopic(cluster, topic, Topics.DEFAULT_PARTITIONS);
        ScanSpec spec = staged(draft, topic);
        printer.hints(ProgressPrinter.Hints.cluster(cluster.bootstrapServers()));
        System.err.println("tablescan: on the workers of the cluster at " + cluster.bootstrapServers() + " (namespace "
                + cluster.namespace() + "): the rows are staged in topic " + topic + " and read here once the scan "
                + "ends; Ctrl-C cancels it");
        try {
            return report(cluster, topic, ClusterJob.run(cluster, spec, CliRun.options(printer, interrupt, env))
                    .outcome(), printer);
        } finally {
            ExportCommand.deleteTopic(cluster, topic);
        }
    }


    /** The scan with its rows staged in {@code topic}, keyed by PartitionKey (a partition in one topic partition). */
    private static ScanSpec staged(ScanSpec draft, String topic) {
        return ScanSpec.newBuilder(draft).setSink(io.tablescan.sink.SinkRefs.toWire(new SinkRef(TargetOptions.TOPIC,
                null, topic, Map.of("key", "partition")))).build();
    }

    private int report(KafkaSettings kafka, String topic, CopyRun.Outcome outcome, ProgressPrinter printer) {
        ScanTotals totals = outcome.totals();
        if (outcome.interrupted()) {
            throw new UserError(UserError.INTERRUPTED, "interrupted: no profile; run the same profile again");
        }
        int code = printer.summary(totals);
        if (code != 0 || totals.state() != ScanState.COMPLETED) {
            System.out.println("no profile: the scan did not complete, so its rows are not all known");
            return code == 0 ? UserError.FAILED : code;
        }
        TableProfile profile = new TopicExporter(kafka, topic).profile();
        if (profile.rows() != totals.rowsRead()) { // never a profile of rows lost or doubled on the way
            throw new UserError(UserError.FAILED, "the profile's topic holds " + profile.rows() + " rows, the scan "
                    + "read " + totals.rowsRead() + ": no profile");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("account", sourceAccount.accountName());
        fields.put("table", sourceTable);
        fields.put("scanId", totals.scanId());
        fields.put("filter", totals.spec().getRowFilter());
        fields.put("select", totals.spec().getSelect());
        fields.putAll(profile.toMap());
        result = fields;
        if (!output.json) {
            List<String> select = totals.spec().getSelect();
            System.out.print("profile of " + sourceTable + (totals.spec().getRowFilter() == null ? ""
                    : " (rows selected by " + totals.spec().getRowFilter() + ")") + (select == null ? ""
                    : " (only the properties " + String.join(", ", select) + ": sizes and limits count only them)")
                    + ": " + profile.text());
        }
        return 0;
    }
}
