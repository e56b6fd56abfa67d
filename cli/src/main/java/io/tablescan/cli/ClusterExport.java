package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ClusterExportFiles;
import io.tablescan.backup.ExportClaim;
import io.tablescan.backup.ExportTarget;
import io.tablescan.backup.Manifest;
import io.tablescan.runner.ClusterJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An export on a cluster's own workers, this command its client only: the scan runs on the workers, and their
 * copy-workers write the files and the manifest once it completed (see ClusterExportFiles). Killing the command
 * changes nothing; the claim on the target names the job's scan, so the same export run again follows that job.
 */
final class ClusterExport {
    /** How long a command that lost the race for the claim waits for the winner's scan to start. */
    private static final java.time.Duration START_WITHIN = java.time.Duration.ofSeconds(60);

    private ClusterExport() {}

    /** Whether this export can run on the cluster's workers: they resolve its source and its target by alias. */
    static boolean possible(KafkaSettings cluster, boolean sourceAlias, ExportTargetOptions to, InProcessOption where) {
        boolean targetByAlias = to.folder != null || to.account != null;
        return cluster != null && where.onWorkers(sourceAlias && targetByAlias) && ClusterJob.hasWorkers(cluster);
    }

    static int run(KafkaSettings cluster, BackupStore store, ExportTargetOptions to, ScanSpec draft, String sourceAlias,
            Map<String, String> env, ProgressPrinter printer, Interrupt interrupt) {
        printer.hints(ProgressPrinter.Hints.cluster(cluster.bootstrapServers()));
        RunOptions options = CliRun.options(printer, interrupt, env);
        Optional<ScanTotals> running = following(cluster, store, draft, to.format);
        Optional<ScanTotals> finished = running.isPresent() ? Optional.empty() : finished(cluster, store, draft, to.format);
        ScanTotals totals;
        if (finished.isPresent()) { // run again after the job ended on the cluster: its result, not a refusal
            System.err.println("tablescan: the same export ran on the cluster as scan " + finished.get().scanId()
                    + " and has finished");
            totals = finished.get();
        } else {
            System.err.println("tablescan: on the workers of the cluster at " + cluster.bootstrapServers()
                    + " (namespace " + cluster.namespace() + "): the export goes on if this command is killed; "
                    + "Ctrl-C cancels it");
            // the same export running, or started a moment ago by another command: followed (ClusterJob says so)
            Object started = running.isPresent() ? running.get()
                    : claimOrFollow(cluster, store, to, draft, sourceAlias, env);
            totals = follow(cluster, store, started instanceof ScanSpec spec ? spec : ((ScanTotals) started).spec(),
                    options);
        }
        if (totals == null) {
            throw new UserError(UserError.INTERRUPTED, "interrupted: the export was cancelled on the cluster; no "
                    + "manifest was written");
        }
        int code = printer.summary(totals);
        if (code != 0 || totals.state() != ScanState.COMPLETED) {
            String runId = ExportTarget.of(totals.spec()).orElseThrow().runId();
            String why = ClusterExportWait.failure(store, runId);
            System.out.println("no manifest written: " + (why != null ? why + " (" + store.describe(
                    ClusterExportFiles.failedName(runId)) + ")" : "the scan did not complete, so " + store.describe()
                    + " holds no finished export"));
            return code == 0 ? UserError.FAILED : code;
        }
        return ClusterExportWait.files(cluster, store, totals, interrupt);
    }

    /**
     * Claims the target for a new job (its spec), or, when another command claimed it a moment ago for the same
     * export, that job's totals once it started; another export's claim refuses.
     */
    private static Object claimOrFollow(KafkaSettings cluster, BackupStore store, ExportTargetOptions to, ScanSpec draft,
            String sourceAlias, Map<String, String> env) {
        try {
            return prepare(cluster, store, to, draft, sourceAlias, env);
        } catch (BackupException e) {
            Optional<ScanTotals> same = e.kind() == BackupException.Kind.IN_USE ? following(cluster, store, draft, to.format)
                    : Optional.empty();
            if (same.isEmpty()) {
                throw BackupLocations.error(e);
            }
            return same.get();
        }
    }

    /**
     * The export on this cluster that holds the target's claim, if it is this same export (the same options): a
     * scan claimed for a moment ago is waited for (a while) until the ledger has it.
     */
    private static Optional<ScanTotals> following(KafkaSettings cluster, BackupStore store, ScanSpec draft,
            io.tablescan.backup.FileFormat format) {
        Optional<ExportClaim.ClusterHolder> holder = ExportClaim.clusterHolder(store);
        if (holder.isEmpty() || holder.get().job() != null && !holder.get().job().equals(ClusterJob.identity(draft))) {
            return Optional.empty();
        }
        String scan = holder.get().scanId();
        try (ScanStatusReader reader = new ScanStatusReader(cluster)) {
            ScanTotals totals = holder.get().job() == null ? reader.latest(scan)
                    : reader.await(scan, ScanTotals::started, START_WITHIN, START_WITHIN, null);
            return totals.started() && sameExport(totals, draft, format) ? Optional.of(totals) : Optional.empty();
        }
    }

    /** Whether a scan is an export of the draft's source in {@code format} (another format is another export). */
    private static boolean sameExport(ScanTotals totals, ScanSpec draft, io.tablescan.backup.FileFormat format) {
        Optional<ExportTarget> target = ExportTarget.of(totals.spec());
        return target.isPresent() && target.get().fileFormat() == format
                && totals.spec().getSource().equals(draft.getSource());
    }

    /** The export of the same table that finished on this cluster into the target, if its manifest is there. */
    private static Optional<ScanTotals> finished(KafkaSettings cluster, BackupStore store, ScanSpec draft,
            io.tablescan.backup.FileFormat format) {
        if (!store.exists(Manifest.NAME)) {
            return Optional.empty();
        }
        String scanId = Manifest.parse(store.read(Manifest.NAME)).scanId();
        try (ScanStatusReader reader = new ScanStatusReader(cluster)) {
            ScanTotals totals = reader.latest(scanId);
            return totals.started() && sameExport(totals, draft, format) ? Optional.of(totals) : Optional.empty();
        }
    }

    /** start without --wait: starts the export (or finds it running) and prints its scan id. */
    static int startOnly(KafkaSettings cluster, BackupStore store, ExportTargetOptions to, ScanSpec draft,
            String sourceAlias, Map<String, String> env) {
        Optional<ScanTotals> running = following(cluster, store, draft, to.format);
        Object started = running.isPresent() ? running.get() : claimOrFollow(cluster, store, to, draft, sourceAlias, env);
        if (started instanceof ScanTotals other) {
            System.err.println("tablescan: the same export is running on the cluster as scan " + other.scanId()
                    + "; no other was started");
            System.out.println(other.scanId());
            return 0;
        }
        ScanSpec spec = (ScanSpec) started;
        io.tablescan.control.ScanStarter.start(cluster, spec);
        System.out.println(spec.getScanId());
        return 0;
    }

    /** Claims the target for the job and creates its topic: the job's spec, for the cluster to run. */
    private static ScanSpec prepare(KafkaSettings cluster, BackupStore store, ExportTargetOptions to, ScanSpec draft,
            String sourceAlias, Map<String, String> env) {
        ExportClaim claim = ExportClaim.takeForCluster(store, cluster.bootstrapServers(), draft.getScanId(),
                ClusterJob.identity(draft));
        String runId = claim.runId();
        ExportTarget target = to.folder != null
                ? ExportTarget.folder(java.nio.file.Path.of(to.folder), runId, sourceAlias, to.format)
                : ExportTarget.container(to.container, to.prefix, to.account, runId, sourceAlias, to.format);
        String topic = ClusterExportFiles.topic(cluster, draft.getScanId());
        Map<String, String> sinkOptions = new TreeMap<>(target.options());
        sinkOptions.put("key", "partition"); // a partition's rows in one topic partition, and so in one file
        ScanSpec spec = ScanSpec.newBuilder(draft).setSink(io.tablescan.sink.SinkRefs.toWire(new SinkRef(
                TargetOptions.TOPIC, null, topic, sinkOptions))).build();
        try {
            ExportCommand.createTopic(cluster, topic, partitions(env));
            claim.handOver(); // from here the job holds the target: its workers release the claim when it ends
        } catch (RuntimeException e) {
            claim.close();
            throw e;
        }
        return spec;
    }

    /**
     * Follows the job (starting it if it is not running yet): its totals once ended, null if Ctrl-C cancelled it;
     * then it waits a while for the workers to free the target, so that the same export run again starts anew.
     */
    private static ScanTotals follow(KafkaSettings cluster, BackupStore store, ScanSpec spec, RunOptions options) {
        CopyRun.Outcome outcome = ClusterJob.run(cluster, spec, options).outcome();
        if (outcome.interrupted()) {
            io.tablescan.local.FreePorts.await(() -> ExportClaim.clusterHolder(store)
                    .filter(h -> h.scanId().equals(spec.getScanId())).isEmpty(), java.time.Duration.ofSeconds(30),
                    () -> true);
            return null;
        }
        return outcome.totals();
    }

    /** For status: where an ended export on the cluster has its files, or how far their writing is. */
    static Optional<String> filesLine(KafkaSettings cluster, ScanTotals totals, Map<String, String> env) {
        Optional<ExportTarget> target = totals.started() ? ExportTarget.of(totals.spec()) : Optional.empty();
        if (target.isEmpty() || !totals.ended()) {
            return Optional.empty();
        }
        String givenUp = ClusterExportFiles.givenUp(totals);
        if (givenUp != null) {
            return Optional.of("  files:         none: " + givenUp);
        }
        try {
            BackupStore store = target.get().open(env::get);
            String runId = target.get().runId();
            if (store.exists(Manifest.NAME) && Manifest.parse(store.read(Manifest.NAME)).scanId().equals(totals.scanId())) {
                return Optional.of("  files:         written, with their manifest: " + store.describe(Manifest.NAME));
            }
            if (store.exists(ClusterExportFiles.failedName(runId))) {
                return Optional.of("  files:         none: " + ClusterExportFiles.failure(store, runId));
            }
            int partitions = partitionCount(cluster, totals.scanId());
            long written = java.util.stream.IntStream.range(0, partitions)
                    .filter(p -> store.exists(ClusterExportFiles.indexName(p, runId))).count();
            return Optional.of(partitions == 0 ? "  files:         no manifest in " + store.describe()
                    : "  files:         being written by the copy-workers: " + written + " of " + partitions
                    + " topic partitions done");
        } catch (BackupException e) {
            return Optional.of("  files:         cannot look at the export's target: " + e.getMessage());
        }
    }

    static int partitionCount(KafkaSettings cluster, String scanId) {
        try (var reader = cluster.newReader()) {
            return Topics.partitions(reader, ClusterExportFiles.topic(cluster, scanId)).size();
        } catch (RuntimeException e) {
            return 0; // already deleted: the export has ended
        }
    }

    private static int partitions(Map<String, String> env) {
        String value = env.get(WorkerSettings.TOPIC_PARTITIONS);
        try {
            return value == null || value.isBlank() ? Topics.DEFAULT_PARTITIONS : Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            return Topics.DEFAULT_PARTITIONS;
        }
    }
}
