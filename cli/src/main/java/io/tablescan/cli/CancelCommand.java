package io.tablescan.cli;

import io.tablescan.control.ScanCanceller;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Cancels a running scan: the workers skip its remaining items and the ledger records it as cancelled.")
final class CancelCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCAN_ID", description = "The scan, as start and copy printed it.")
    String scanId;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() {
        KafkaSettings kafka = cluster.settings();
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            ScanTotals t = StatusCommand.known(reader, scanId);
            if (t.ended()) {
                System.out.printf("scan %s %s: nothing to cancel%n", scanId, ScanSummary.describe(t));
                return 0;
            }
        }
        ScanCanceller.cancel(kafka, scanId);
        System.out.printf("scan %s: cancel sent; workers skip its remaining items%n", scanId);
        return 0;
    }
}
