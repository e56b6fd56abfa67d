package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ClusterExportFiles;
import io.tablescan.backup.ExportClaim;
import io.tablescan.backup.ExportTarget;
import io.tablescan.backup.Manifest;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;

/** What a client of an export on a cluster waits for once the scan ended: the workers' files, or their failure. */
final class ClusterExportWait {
    private static final long REPORT_EVERY_NANOS = 5_000_000_000L;
    /** How long the command waits for the workers to record why an export that did not complete failed. */
    private static final java.time.Duration FAILURE_WITHIN = java.time.Duration.ofSeconds(30);

    private ClusterExportWait() {}

    /** Waits for the workers' manifest (or their failure), reporting the partitions written every few seconds. */
    static int files(KafkaSettings cluster, BackupStore store, ScanTotals totals, Interrupt interrupt) {
        String runId = ExportTarget.of(totals.spec()).orElseThrow().runId();
        int partitions = ClusterExport.partitionCount(cluster, totals.scanId());
        boolean waited = !ClusterExportFiles.ended(store, runId); // else written before this command came
        if (waited) {
            System.out.println("the cluster's copy-workers are writing the data files to " + store.describe() + "...");
        }
        long started = System.nanoTime();
        long nextReport = started + REPORT_EVERY_NANOS;
        long nextCheck = started;
        try (ScanStatusReader reader = new ScanStatusReader(cluster)) {
            while (!ClusterExportFiles.ended(store, runId)) {
                if (System.nanoTime() >= nextCheck) { // the workers could not write to the target: they gave it up
                    String why = ClusterExportFiles.givenUp(reader.latest(totals.scanId()));
                    if (why != null) {
                        ExportClaim.release(store, runId); // they could not reach it: this command can
                        System.out.println("no manifest written: " + why);
                        return UserError.FAILED;
                    }
                    nextCheck = System.nanoTime() + REPORT_EVERY_NANOS / 2;
                }
                if (interrupt.requested()) {
                    throw new UserError(UserError.INTERRUPTED, "interrupted: the cluster's workers go on writing the "
                            + "files of scan " + totals.scanId() + " to " + store.describe() + "; run the same export "
                            + "again to follow it");
                }
                if (System.nanoTime() >= nextReport && partitions > 0) {
                    long written = java.util.stream.IntStream.range(0, partitions)
                            .filter(p -> store.exists(ClusterExportFiles.indexName(p, runId))).count();
                    System.out.printf("  files: %d of %d topic partitions written%n", written, partitions);
                    nextReport = System.nanoTime() + REPORT_EVERY_NANOS;
                }
                Thread.sleep(500); // polling the target for a file that appears, with no deadline: the job decides
            }
            if (!store.exists(Manifest.NAME)) {
                String why = ClusterExportFiles.failure(store, runId);
                System.out.println("no manifest written: " + (why != null ? why : "the export failed on the cluster"));
                return UserError.FAILED;
            }
            Manifest manifest = Manifest.parse(store.read(Manifest.NAME));
            if (!manifest.scanId().equals(totals.scanId())) {
                throw new UserError(UserError.FAILED, store.describe() + " holds another export's manifest");
            }
            System.out.println(exported(manifest, store.describe(), waited ? String.format(java.util.Locale.ROOT,
                    "; files written in %.1f s", (System.nanoTime() - started) / 1e9) : ""));
            return 0;
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError(UserError.INTERRUPTED, "interrupted");
        }
    }

    /** Waits a while for the workers' failure file of an export whose scan did not complete: its reason, or null. */
    static String failure(BackupStore store, String runId) {
        try {
            io.tablescan.local.FreePorts.await(() -> ClusterExportFiles.ended(store, runId), FAILURE_WITHIN, () -> true);
            return ClusterExportFiles.failure(store, runId);
        } catch (BackupException e) {
            return null;
        }
    }

    /**
     * An export's last line, "exported N rows in F files (B bytes) to WHERE" and {@code more}: formatted first, then
     * printed in one piece, since printf writes piece by piece and a library's log line on standard error (at DEBUG)
     * could land in its middle where both go to one terminal or file.
     */
    static String exported(Manifest manifest, String where, String more) {
        long bytes = manifest.files().stream().mapToLong(Manifest.DataFile::bytes).sum();
        return String.format("exported %s in %s (%,d bytes) to %s%s", ProgressPrinter.plural(manifest.totalRows(), "row"),
                ProgressPrinter.plural(manifest.files().size(), "file"), bytes, where, more);
    }
}
