package io.tablescan.cli;

import io.tablescan.control.FailedItems;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "retry", mixinStandardHelpOptions = true,
        description = "Re-submits a scan's failed items (after you fixed their cause) to the running workers; the "
                + "scan is running again until they are done.")
final class RetryCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCAN_ID", description = "The scan, as start and copy printed it.")
    String scanId;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--wait", description = "Follow the scan until it ends again; exit like copy.")
    boolean await;

    @Mixin
    WaitOptions wait = new WaitOptions();

    @Override
    public Integer call() {
        wait.only(await, "--wait");
        KafkaSettings kafka = cluster.settings();
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            ScanTotals before = StatusCommand.known(reader, scanId);
            if (before.state() == ScanState.CANCELLED) {
                throw new UserError(UserError.USAGE, "scan " + scanId + " was cancelled; start a new scan instead");
            }
            int retried;
            try (FailedItems items = new FailedItems(kafka, scanId)) {
                retried = items.retry();
            }
            System.out.printf("scan %s: re-submitted %s%n", scanId, ProgressPrinter.plural(retried, "failed item"));
            if (!await || retried == 0) {
                return 0;
            }
            ProgressPrinter printer = new ProgressPrinter(System.out)
                    .hints(ProgressPrinter.Hints.cluster(kafka.bootstrapServers()));
            long target = before.itemsRetried() + retried;
            return printer.summary(wait.await(reader, scanId, t -> t.itemsRetried() >= target && t.ended(), printer));
        }
    }
}
