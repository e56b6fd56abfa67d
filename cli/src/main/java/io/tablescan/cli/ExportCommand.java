package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ExportClaim;
import io.tablescan.backup.Manifest;
import io.tablescan.backup.ExportFiles;
import io.tablescan.backup.FileFormat;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Backs a table up to files. Stage 1 is a scan whose sink publishes every row exactly once (Kafka transactions)
 * into a private topic, keyed by PartitionKey; stage 2, once the ledger says the scan completed, cuts that topic
 * into deterministic data files and writes the manifest last. The topic is deleted at the end.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan export --source-table=TABLE",
                "        (--source-account=ALIAS | --source-connection-string=CS)",
                "        (--to=DIR | --to-container=NAME) [OPTIONS]"},
        description = "Backs a table up to a folder or a Blob container: gzip'd JSON lines (or Parquet, or CSV) and "
                + "a manifest.json with counts and SHA-256, written last. Exit 0 only if the scan completes and every file is written.")
final class ExportCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    JsonOutput output = new JsonOutput();

    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Option(names = "--source-table", required = true, paramLabel = "TABLE", description = "The table to export; it "
            + "must exist.")
    String sourceTable;

    @Mixin
    ExportTargetOptions to = new ExportTargetOptions();

    @Mixin
    FileFormatOption format = new FileFormatOption();

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker), in topics and groups of this export's own, removed when it ends.")
    String kafka;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Mixin
    StateOptions state = new StateOptions();

    @Mixin
    InProcessOption where = new InProcessOption();

    @Override
    public Integer call() throws Exception {
        return output.around(this::execute);
    }

    private Integer execute() {
        Checks.tableName("--source-table", sourceTable);
        to.format = format.value();
        scan.validate();
        Checks.bootstrapServers(kafka);
        BackupStore target = to.open(env);
        output.target(target.describe()).job("export"); // the files, not the topic that stages them
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env);
        TableStore source = sourceAccount.store(new Accounts(env::get));
        Checks.tableExists(source, sourceTable, "source");
        Checks.queryAccepted(source, sourceTable, scan.rowFilter(), scan.select);
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        warnOfOtherFiles(target, to.format);
        if (ClusterExport.possible(cluster, sourceAccount.alias != null, to, where)) {
            ScanSpec draft = scan.applyTo(ScanSpecs.copy().from(new TableRef(sourceAccount.name(), sourceTable))).build();
            ProgressPrinter printer = new ProgressPrinter(System.out).intoPrivateTopic("export to " + target.describe(),
                    true);
            try (Interrupt interrupt = Interrupt.onSigint()) {
                return ClusterExport.run(cluster, target, to, draft, sourceAccount.name(), env, printer, interrupt);
            }
        }
        try (JobState local = cluster == null ? state.open(env, sourceTable + " -> " + target.describe()) : null) {
            // A rerun of a local export is the same run: it takes over the claim its killed run left on this host,
            // and writes files of the same names.
            String resumed = local != null ? local.get("runId") : null;
            Manifest finished = resumed != null && local.resumable()
                    ? ExportFiles.finishedBefore(target, local.spec().getScanId()) : null;
            if (finished != null && finished.fileFormat() != to.format) {
                throw new UserError(UserError.USAGE, target.describe() + " holds this export, finished as "
                        + finished.fileFormat().label() + " files: export as " + to.format.label() + " to another "
                        + "folder or prefix");
            }
            if (finished != null) { // killed after its manifest, before its state went: the export is finished
                ExportClaim.dropLeftClaim(target, resumed);
                System.out.println(ClusterExportWait.exported(finished, target.describe(), "; finished by the earlier "
                        + "run"));
                local.finish();
                return 0;
            }
            ExportClaim claim;
            try { // for the whole run: a second export onto the target is refused
                claim = resumed != null ? ExportClaim.resume(target, resumed) : ExportClaim.take(target);
            } catch (BackupException e) {
                throw BackupLocations.error(e);
            }
            try (claim) {
                if (local != null) {
                    local.put("runId", claim.runId());
                }
                return run(cluster, source, target, claim.runId(), local);
            }
        }
    }

    private int run(KafkaSettings cluster, TableStore source, BackupStore target, String runId, JobState local) {
        String sourceName = sourceAccount.name();
        Accounts accounts = new Accounts(name -> null).register(sourceName, source);
        ScanSpec draft = scan.applyTo(ScanSpecs.copy().from(new TableRef(sourceName, sourceTable))).build();
        String role = "export-" + draft.getScanId();
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local())
                .intoPrivateTopic("export to " + target.describe(), true)
                .estimating(PreviousExport.find(to.folder, sourceAccount.accountName(), draft));
        try (Interrupt interrupt = Interrupt.onSigint()) {
            FileFormat fileFormat = to.format;
            return CopyRun.runHere(cluster, accounts, kafka -> {
                String topic = kafka.namespace().topic(role);
                createTopic(kafka, topic, cluster == null ? Topics.LOCAL_PARTITIONS : Topics.DEFAULT_PARTITIONS);
                // Keyed by PartitionKey: a partition's rows stay in one topic partition, and so in one file.
                return ScanSpec.newBuilder(draft).setSink(io.tablescan.sink.SinkRefs.toWire(new SinkRef(
                        TargetOptions.TOPIC, null, topic, Map.of("key", "partition")))).build();
            }, CliRun.options(printer, interrupt, env).withState(local).withCapsOf(draft), (kafka, outcome) -> {
                // the scan run: a resumed export's is its first run's
                String topic = kafka.namespace().topic("export-" + outcome.totals().scanId());
                if (outcome.interrupted() && local != null) { // its topic stays with the state, for the rerun
                    throw new UserError(UserError.INTERRUPTED, StateOptions.resumeHint(local));
                }
                try {
                    return finish(kafka, topic, outcome, target, runId, sourceAccount.accountName(), printer,
                            fileFormat);
                } finally {
                    deleteTopic(kafka, topic);
                }
            });
        }
    }

    /** Stage 2 once the scan ended: the files and the manifest, only for a scan that completed with no failure. */
    private static int finish(KafkaSettings kafka, String topic, CopyRun.Outcome outcome, BackupStore target,
            String runId, String accountName, ProgressPrinter printer, FileFormat format) {
        ScanTotals totals = outcome.totals();
        if (outcome.interrupted()) {
            throw new UserError(UserError.INTERRUPTED, "interrupted: no manifest was written, so " + target.describe()
                    + " holds no finished export; run the same export again");
        }
        int code = printer.summary(totals);
        if (code != 0 || totals.state() != ScanState.COMPLETED) {
            System.out.println("no manifest written: the scan did not complete, so " + target.describe()
                    + " holds no finished export");
            return code == 0 ? UserError.FAILED : code;
        }
        long started = System.nanoTime();
        Manifest manifest;
        try {
            System.out.println("writing the data files to " + target.describe() + "...");
            java.util.concurrent.atomic.AtomicLong lastLine = new java.util.concurrent.atomic.AtomicLong(System.nanoTime());
            long filesStart = System.nanoTime();
            manifest = ExportFiles.write(kafka, topic, totals, target, runId, accountName, written -> {
                long last = lastLine.get(); // called by each partition's reader: one line every 5 s, as copy's
                if (System.nanoTime() - last >= 5_000_000_000L && lastLine.compareAndSet(last, System.nanoTime())) {
                    System.out.printf("  %,d of %,d rows in files%s%n", written, totals.rowsRead(),
                            filesLeft(written, totals.rowsRead(), System.nanoTime() - filesStart));
                }
            }, format);
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
        System.out.println(ClusterExportWait.exported(manifest, target.describe(),
                String.format("; files written in %.1f s", (System.nanoTime() - started) / 1e9)));
        return 0;
    }

    /**
     * ", about 1:05 left" for the files stage, at its average rate since it began (none in its first 5 s): its readers
     * write in bursts (a file closed, a block uploaded), and the rate of the last seconds made the time left jump
     * from 0:20 to 5:18 and back.
     */
    static String filesLeft(long written, long total, long elapsedNanos) {
        if (written <= 0 || written >= total || elapsedNanos < 5_000_000_000L) {
            return "";
        }
        long leftMillis = (long) Math.ceil((total - written) * (elapsedNanos / 1e6) / written);
        return ", about " + ProgressPrinter.clock(leftMillis + 999) + " left";
    }


    /**
     * Warns when the target already holds data files of the export's format (a glob such as {@code *.parquet} reads
     * them with this export's); a resumed run's own files count too, as their names cannot be told from those of
     * another run before the claim is read. A store that cannot list says nothing.
     */
    private void warnOfOtherFiles(BackupStore target, FileFormat format) {
        if (format == FileFormat.JSONL) {
            return; // read through the manifest, which lists its own
        }
        try {
            long others = target.list().stream().filter(n -> n.endsWith(format.extension())).count();
            if (others > 0 && !target.exists(io.tablescan.backup.Manifest.NAME)) {
                System.err.println("tablescan: warning: " + target.describe() + " already holds " + others + " *"
                        + format.extension() + " file" + (others == 1 ? "" : "s") + " from before this run (one of "
                        + "this export's names is replaced, any other stays): a glob over it reads every one "
                        + "(manifest.json lists this export's own)");
            }
        } catch (UnsupportedOperationException | io.tablescan.backup.BackupException e) {
            // no listing: nothing to say
        }
    }

    static void createTopic(KafkaSettings kafka, String topic, int partitions) {
        try (Admin admin = kafka.newAdmin()) {
            Topics.ensure(admin, List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())
                    .configs(Map.of("max.message.bytes", Integer.toString(Topics.MAX_MESSAGE_BYTES)))),
                    Duration.ofSeconds(60));
        } catch (IllegalStateException e) {
            throw new UserError(UserError.UNREACHABLE, "cannot create the topic " + topic + ": " + e.getMessage());
        }
    }

    /** The topic held a copy of every row: gone when the export ends (a failed deletion is one warning line). */
    static void deleteTopic(KafkaSettings kafka, String topic) {
        try (Admin admin = kafka.newAdmin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)) {
                System.err.println("tablescan: warning: could not delete the topic " + topic + " ("
                        + e.getCause().getClass().getSimpleName() + "); delete it by hand");
            } // else gone already: a resumed job's, deleted by the run it resumes
        } catch (Exception e) {
            System.err.println("tablescan: warning: could not delete the topic " + topic + " ("
                    + e.getClass().getSimpleName() + "); delete it by hand");
        }
    }
}
