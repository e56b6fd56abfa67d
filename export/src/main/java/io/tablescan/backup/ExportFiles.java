package io.tablescan.backup;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.LoggerFactory;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Stage 2 of an export, for a scan that completed with no failure: the data files from its topic, a check that
 * they hold exactly the rows the scan read, then the manifest, last, created only if there is none yet.
 */
public final class ExportFiles {
    private ExportFiles() {}

    /** As below, for a new run id, naming the source by its alias (tests and benchmarks: no claim is taken). */
    public static Manifest write(KafkaSettings kafka, String topic, ScanTotals totals, BackupStore target) {
        return write(kafka, topic, totals, target, HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()),
                null, rows -> {}, FileFormat.JSONL);
    }

    /**
     * Writes the files of run {@code runId} (see {@link ExportClaim}), naming the source account {@code accountName}
     * in the manifest (null: as the scan names it, by alias), and telling {@code progress} the rows written to files
     * so far after each row. The manifest lists exactly this run's files; if another's manifest got there first,
     * this run's files are deleted again and the failure is of kind IN_USE.
     */
    public static Manifest write(KafkaSettings kafka, String topic, ScanTotals totals, BackupStore target,
            String runId, String accountName, java.util.function.LongConsumer progress, FileFormat format) {
        if (totals.state() != ScanState.COMPLETED) {
            throw new BackupException(BackupException.Kind.FAILED, "the scan did not complete: no manifest written");
        }
        Manifest finished = finishedBefore(target, totals.scanId());
        if (finished != null && finished.fileFormat() != format) {
            throw new BackupException(BackupException.Kind.IN_USE, target.describe() + " holds this export, finished as "
                    + finished.fileFormat().label() + " files, not " + format.label());
        }
        if (finished != null) { // a rerun of a job killed after its manifest: its files are there, and its topic may not be
            return finished;
        }
        target.prepare(); // idempotent: the folder or container may not be there yet
        TopicExporter exporter = new TopicExporter(kafka, topic);
        TableSchema schema = null;
        if (format.needsSchema()) { // beside the manifest, before it: a finished export has both
            schema = exporter.schema(totals.scanId(), format);
            target.write(TableSchema.NAME, schema.toJson());
        } else {
            removeStaleSchema(target);
        }
        List<Manifest.DataFile> files = exporter.export(target, runId, progress, format, schema);
        long rows = files.stream().mapToLong(Manifest.DataFile::rows).sum();
        if (rows != totals.rowsRead()) { // never a manifest over rows lost or doubled on the way
            throw new BackupException(BackupException.Kind.FAILED, "the export's topic holds " + rows
                    + " rows, the scan read " + totals.rowsRead() + ": no manifest written");
        }
        Manifest manifest = manifest(totals, accountName, files, exporter.partitionCount(), Instant.now(), format);
        if (!target.create(Manifest.NAME, manifest.toJson())) { // last: its presence means a finished export
            files.forEach(file -> target.delete(file.name()));
            throw new BackupException(BackupException.Kind.IN_USE, target.describe() + " received another export's "
                    + Manifest.NAME + " while this one ran (was its claim deleted?): this export's files were removed; "
                    + "export to another folder, container or prefix");
        }
        return manifest;
    }

    /**
     * Removes a {@code schema.json} an earlier, unfinished Parquet or CSV export left where a JSON-lines export now
     * goes (not this one's columns); a store that may not delete (a SAS token without 'd') keeps it, with a warning.
     */
    static void removeStaleSchema(BackupStore target) {
        if (!target.exists(TableSchema.NAME)) {
            return;
        }
        try {
            target.delete(TableSchema.NAME);
        } catch (BackupException e) {
            LoggerFactory.getLogger(ExportFiles.class).warn("{} holds an earlier export's {}, which could not be "
                    + "removed ({}): it does not describe this export's files", target.describe(), TableSchema.NAME,
                    e.getMessage());
        }
    }

    /** The manifest {@code target} holds of scan {@code scanId}'s export, or null: none, or another scan's. */
    public static Manifest finishedBefore(BackupStore target, String scanId) {
        if (!target.exists(Manifest.NAME)) {
            return null;
        }
        Manifest manifest;
        try {
            manifest = Manifest.parse(target.read(Manifest.NAME));
        } catch (RuntimeException e) {
            return null; // not this scan's to take over: the create below refuses it as another export's
        }
        return scanId.equals(manifest.scanId()) ? manifest : null;
    }

    /** The manifest of a completed scan's files, naming the source account {@code accountName} (null: its alias). */
    static Manifest manifest(ScanTotals totals, String accountName, List<Manifest.DataFile> files, int partitions,
            Instant end, FileFormat format) {
        ScanSpec spec = totals.spec();
        long rows = files.stream().mapToLong(Manifest.DataFile::rows).sum();
        return new Manifest(Manifest.FORMAT_VERSION, accountName != null ? accountName : spec.getSource().getAccount(),
                spec.getSource().getTable(), totals.scanId(),
                Instant.ofEpochMilli(totals.status().getStartMillis()).toString(), end.toString(),
                spec.getRowFilter(), spec.getSelect(), spec.getLowerPartition(), spec.getUpperPartition(), rows, files,
                partitions, format == FileFormat.JSONL ? null : format.label());
    }
}
