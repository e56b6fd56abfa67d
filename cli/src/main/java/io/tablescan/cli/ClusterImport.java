package io.tablescan.cli;

import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ClusterImportFiles;
import io.tablescan.backup.Manifest;
import io.tablescan.job.Job;
import io.tablescan.rate.Direction;
import io.tablescan.runner.RunOptions;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.table.TableNames;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * An import on a cluster's workers, this process only its client: the files were checked here, then one Kafka
 * transaction starts the job (its first event and one record per data file) and the copy-workers send the files.
 * {@code import --kafka} and {@code start --from} build the same job, so each attaches to the one the other started.
 */
final class ClusterImport {
    /** The job options that name an import's export (where it is, its scan): what makes it an import's job. */
    static final String FROM = "import.from";
    static final String SCAN = "import.scan";

    private final ScanSpec spec;
    private final ImportCommand.Checked checked;
    private final ExportSourceOptions export;

    ClusterImport(Job job, Map<String, String> writeOptions, BackupStore from, ExportSourceOptions export,
            ImportCommand.Checked checked, String destAlias, String destTable, Long maxWriteRate) {
        Map<String, String> options = new TreeMap<>(writeOptions);
        options.put(FROM, from.describe()); // which export: two imports of different exports are different jobs
        options.put(SCAN, checked.manifest().scanId());
        this.spec = spec(job, options, destAlias, checked.manifest(), destAlias, destTable, maxWriteRate);
        this.checked = checked;
        this.export = export;
    }

    /** An import's spec: its batches read nothing, so the source names the export's table for the status only. */
    static ScanSpec spec(Job job, Map<String, String> options, String sourceAlias, Manifest manifest, String destAlias,
            String destTable, Long maxWriteRate) {
        String sourceTable = manifest.sourceTable() != null && TableNames.problem(manifest.sourceTable()) == null
                ? manifest.sourceTable() : destTable;
        return ScanSpecs.of(job, options).from(new TableRef(sourceAlias, sourceTable))
                .to(new TableRef(destAlias, destTable))
                .limits(maxWriteRate == null ? null : Map.of(Direction.READ.key, 0L, Direction.WRITE.key, maxWriteRate))
                .build();
    }

    ScanSpec spec() {
        return spec;
    }

    /** Whether this job is running on the cluster already (the ledger's scans). */
    boolean running(io.tablescan.runtime.KafkaSettings cluster) {
        try (io.tablescan.status.ScanStatusReader reader = new io.tablescan.status.ScanStatusReader(cluster)) {
            return io.tablescan.runner.ClusterJob.running(reader, spec).isPresent();
        }
    }

    /** Starts the job: the topic of its files, then its first event and their records, in one transaction. */
    RunOptions.Seeder seeder() {
        Manifest manifest = checked.manifest();
        // the workers open the export by the same absolute path (a shared volume) or the container by its alias
        String folder = export.folder == null ? null : Path.of(export.folder).toAbsolutePath().normalize().toString();
        return (kafka, s) -> ClusterImportFiles.seed(kafka, s, manifest, checked.batches(), manifest.totalRows(), folder,
                export.container, export.prefix, export.account);
    }

    /** How its progress is shown: rows of the export's total, read from files. */
    ProgressPrinter printer(BackupStore from) {
        return new ProgressPrinter(System.out).fromFiles(from.describe()).expecting(checked.manifest().totalRows());
    }
}
