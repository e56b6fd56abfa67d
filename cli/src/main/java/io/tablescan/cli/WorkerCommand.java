package io.tablescan.cli;

import io.tablescan.backup.ExportFileWorker;
import io.tablescan.backup.ImportFileWorker;
import io.tablescan.copy.CopyWorker;
import io.tablescan.discovery.DiscoveryWorker;
import io.tablescan.partition.PartitionWorker;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.WorkerLauncher;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Runs one worker until SIGTERM, configured by environment variables (KAFKA_BOOTSTRAP_SERVERS, "
                + "TABLESCAN_ACCOUNT_<ALIAS>_CONNECTION_STRING or _ENDPOINT with _SAS_TOKEN or Entra ID, TABLESCAN_NAMESPACE, TABLESCAN_METRICS_PORT, ...).")
public final class WorkerCommand implements Callable<Integer> {
    public enum Kind {
        discovery(DiscoveryWorker.NAME, DiscoveryWorker.INPUT),
        partition(PartitionWorker.NAME, PartitionWorker.INPUT),
        copy(CopyWorker.NAME, CopyWorker.INPUT);

        public final String worker;
        public final ItemKind input;

        Kind(String worker, ItemKind input) {
            this.worker = worker;
            this.input = input;
        }
    }

    @Parameters(index = "0", paramLabel = "KIND", description = "discovery, partition or copy.")
    Kind kind;

    @Override
    public Integer call() {
        return switch (kind) {
            case discovery -> WorkerLauncher.run(kind.worker, DiscoveryWorker::create);
            case partition -> WorkerLauncher.run(kind.worker, PartitionWorker::create);
            case copy -> WorkerLauncher.run(kind.worker, settings -> {
                // A copy-worker also writes the files of the cluster's exports once their scans completed, and
                // sends the files of its imports.
                ExportFileWorker files = ExportFileWorker.start(settings.kafka(), System::getenv);
                ImportFileWorker imports = ImportFileWorker.start(settings.kafka(), System::getenv);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    files.close();
                    imports.close();
                }, "export-import-files-stop"));
                return CopyWorker.create(settings);
            });
        };
    }
}
