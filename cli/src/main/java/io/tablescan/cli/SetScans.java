package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ExportFiles;
import io.tablescan.backup.ImportSeeder;
import io.tablescan.backup.Manifest;
import io.tablescan.job.JobRequest;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.CopyJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.PipelineSession;
import io.tablescan.runner.RunOptions;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanTotals;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The scans of backup sets, run through one {@link PipelineSession}: a table's export (the two stages of
 * {@code export}: a scan into a private topic, then {@link ExportFiles}) and a checked export's import (the
 * batches of {@code import}). Any failure is a {@link BackupException} naming the table.
 */
final class SetScans {
    private final PipelineSession session;
    private final boolean cluster;
    private final Map<String, String> env;
    private final BooleanSupplier stop;
    private final SetProgress progress;
    /** Whether the session keeps its scans for a rerun (a local backup set's state). */
    private final boolean resumable;

    SetScans(PipelineSession session, boolean cluster, boolean resumable, Map<String, String> env,
            BooleanSupplier stop, SetProgress progress) {
        this.session = session;
        this.resumable = resumable;
        this.cluster = cluster;
        this.env = env;
        this.stop = stop;
        this.progress = progress;
    }

    /**
     * Exports {@code table} of account alias {@code source} to {@code target}: the rows {@code filter} selects. Its
     * scan is stage {@code stage} of the session: in a resumed backup set, the scan its earlier run seeded is
     * followed on, and a stage whose manifest that run wrote is not run again.
     */
    Manifest export(String stage, String source, String table, String filter, List<String> select,
            Map<String, Long> limits, BackupStore target, String runId, String accountName) {
        KafkaSettings kafka = session.kafka();
        CopyRun.Outcome outcome = session.run(stage, k -> {
            ScanSpec draft = ScanSpecs.copy().from(new TableRef(source, table)).filter(filter).select(select)
                    .limits(limits).build();
            String topic = topic(k, draft.getScanId());
            ExportCommand.createTopic(k, topic, cluster ? Topics.DEFAULT_PARTITIONS : Topics.LOCAL_PARTITIONS);
            return ScanSpec.newBuilder(draft).setSink(SinkRefs.toWire(new SinkRef(TargetOptions.TOPIC, null, topic,
                    Map.of("key", "partition")))).build(); // a partition's rows in one file, as export's
        }, options());
        String topic = topic(kafka, outcome.totals().scanId());
        boolean kept = false;
        try {
            ScanTotals totals = completed(table, outcome);
            return ExportFiles.write(kafka, topic, totals, target, runId, accountName, rows -> {},
                    io.tablescan.backup.FileFormat.JSONL);
        } catch (RuntimeException e) {
            kept = resumable; // a rerun follows the scan on and writes its files from this topic
            throw e;
        } finally {
            if (!kept) {
                ExportCommand.deleteTopic(kafka, topic);
            }
        }
    }

    private static String topic(KafkaSettings kafka, String scanId) {
        return kafka.namespace().topic("export-" + scanId);
    }

    /**
     * Writes a checked export ({@code batches}: its check's count) into {@code destTable} of the alias
     * {@code dest} with upsert-replace, at most {@code limits}' rows/s (null: uncapped); returns the rows written.
     */
    long importInto(String dest, String destTable, BackupStore from, Manifest manifest, long batches,
            Map<String, Long> limits) {
        if (batches == 0) {
            return 0;
        }
        var job = Checks.job(Jobs.named(CopyJob.NAME), new JobRequest("import", true, null, null, Map.of()));
        ScanSpec spec = ScanSpecs.of(job, Map.of()).from(new TableRef(RestoreCommand.EXPORT_ALIAS, destTable))
                .to(new TableRef(dest, destTable)).limits(limits).build();
        RunOptions options = options().withSeeder((kafka, s) -> ImportSeeder.seed(kafka, s, from, manifest, batches,
                manifest.totalRows()));
        return completed(destTable, session.run(spec, options)).rowsWritten();
    }

    /** Whether {@code error}, a table's, is Ctrl-C's: said once the set's index is written, if it is. */
    boolean interruption(String error) {
        return stop.getAsBoolean() && stoppedBy(error);
    }

    /** Whether a table's {@code error} says Ctrl-C stopped it (its scan's, or its point reads'). */
    static boolean stoppedBy(String error) {
        return error != null && error.endsWith("interrupted");
    }

    /** Whether the session keeps its scans for a rerun: a table Ctrl-C stopped may go on then. */
    boolean resumable() {
        return resumable;
    }

    /** True once the user asked the backup to stop. */
    BooleanSupplier stop() {
        return stop;
    }

    private RunOptions options() {
        return RunOptions.defaults().withEnv(env).withStop(stop).withProgress(SetProgress.POLL, progress::seen);
    }

    private ScanTotals completed(String table, CopyRun.Outcome outcome) {
        ScanTotals totals = outcome.totals();
        progress.seen(totals); // its last figure, which the last poll may have missed
        if (outcome.interrupted()) {
            throw new BackupException(BackupException.Kind.FAILED, "interrupted"); // the line names the table
        }
        if (totals.state() != ScanState.COMPLETED) {
            throw new BackupException(BackupException.Kind.FAILED, "the scan did not complete ("
                    + totals.state() + ", " + totals.itemsFailed() + " failed items"
                    + (totals.errors().isEmpty() ? "" : "; first: " + totals.errors().getFirst()) + ")");
        }
        return totals;
    }
}
