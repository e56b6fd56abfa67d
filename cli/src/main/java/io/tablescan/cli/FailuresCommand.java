package io.tablescan.cli;

import io.tablescan.control.FailedItems;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "failures", mixinStandardHelpOptions = true,
        description = "Lists a scan's failed items parked in the dead-letter topic, with their reasons.")
final class FailuresCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCAN_ID", description = "The scan, as start and copy printed it.")
    String scanId;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--limit", defaultValue = "50", description = "Failures listed (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new UserError(UserError.USAGE, "--limit must be at least 1");
        }
        KafkaSettings kafka = cluster.settings();
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            StatusCommand.known(reader, scanId);
        }
        List<FailedItems.Failure> failures;
        try (FailedItems items = new FailedItems(kafka, scanId)) {
            failures = items.list();
        }
        long pending = failures.stream().filter(f -> !f.retried()).count();
        System.out.printf("scan %s: %s parked, %,d not retried yet%n", scanId,
                ProgressPrinter.plural(failures.size(), "failed item"), pending);
        for (FailedItems.Failure f : failures.subList(0, Math.min(limit, failures.size()))) {
            System.out.printf("  %s %s-%d@%d, %d attempts: %s: %s%n", f.retried() ? "retried" : "pending",
                    f.originalTopic(), f.originalPartition(), f.originalOffset(), f.attempts(),
                    simpleName(f.errorClass()), f.errorMessage());
        }
        if (failures.size() > limit) {
            System.out.printf("  ... %,d more (--limit)%n", failures.size() - limit);
        }
        return 0;
    }

    private static String simpleName(String className) {
        return className == null ? "?" : className.substring(className.lastIndexOf('.') + 1);
    }
}
