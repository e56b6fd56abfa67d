package io.tablescan.cli;

import io.tablescan.control.Throttle;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "throttle", mixinStandardHelpOptions = true,
        description = "Sets or changes a running scan's rate caps (whether or not it was started with --max-rate or "
                + "--max-write-rate); every worker follows within a few seconds.")
final class ThrottleCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCAN_ID", description = "The scan, as start and copy printed it.")
    String scanId;

    @Option(names = "--max-rate", paramLabel = "ROWS_PER_S",
            description = "The source's reads, rows/s for all workers together (0: no cap).")
    Long maxRate;

    @Option(names = "--max-write-rate", paramLabel = "ROWS_PER_S",
            description = "The destination's writes, rows/s for all workers together (0: no cap).")
    Long maxWriteRate;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() {
        if (maxRate == null && maxWriteRate == null) {
            throw new UserError(UserError.USAGE, "give --max-rate or --max-write-rate (or both)");
        }
        if ((maxRate != null && maxRate < 0) || (maxWriteRate != null && maxWriteRate < 0)) {
            throw new UserError(UserError.USAGE, "a rate cap is 0 (none) or more rows per second");
        }
        KafkaSettings kafka = cluster.settings();
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            ScanTotals t = StatusCommand.known(reader, scanId);
            if (t.ended()) {
                System.out.printf("scan %s %s: nothing to throttle%n", scanId, ScanSummary.describe(t));
                return 0;
            }
        }
        Throttle.set(kafka, scanId, maxRate, maxWriteRate);
        System.out.printf("scan %s: caps sent (%s); workers follow within a few seconds%n", scanId,
                RateOptions.describe(maxRate, maxWriteRate));
        return 0;
    }
}
