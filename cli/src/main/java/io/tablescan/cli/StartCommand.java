package io.tablescan.cli;

import io.tablescan.progress.ScanStarter;
import io.tablescan.progress.ScanStatusReader;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.TableRef;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Seeds a scan into a running cluster of workers and prints its scan id. The workers resolve "
                + "the account aliases with their own TABLESCAN_ACCOUNT_<ALIAS>_* credentials.")
final class StartCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--source-account", required = true, description = "Account alias of the source.")
    String sourceAccount;

    @Option(names = "--source-table", required = true)
    String sourceTable;

    @Option(names = "--dest-account", required = true, description = "Account alias of the destination.")
    String destAccount;

    @Option(names = "--dest-table", required = true)
    String destTable;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Option(names = "--wait", description = "Follow the scan's progress until it ends; exit like copy (needs a running ledger).")
    boolean await;

    @Override
    public Integer call() {
        Checks.tableName("--source-table", sourceTable);
        Checks.tableName("--dest-table", destTable);
        scan.validPageSize();
        KafkaSettings settings = cluster.settings();
        // When this machine has the source's credentials too, a missing source table is caught now.
        Accounts local = Accounts.fromEnvironment();
        if (local.configured(sourceAccount)) {
            Checks.tableExists(Checks.account(local, sourceAccount), sourceTable, "source");
        }
        try (Admin admin = Admin.create(settings.admin())) {
            Topics.ensure(admin, settings.namespace(), topicPartitions(), Optional.empty(), Duration.ofSeconds(60));
        }
        var spec = ScanSpecs.copy(new TableRef(sourceAccount, sourceTable), new TableRef(destAccount, destTable),
                scan.pageSize, scan.strategy);
        ScanStarter.start(settings, spec);
        System.out.println(spec.getScanId());
        if (!await) {
            return 0;
        }
        ProgressPrinter printer = new ProgressPrinter(System.out);
        try (ScanStatusReader reader = new ScanStatusReader(settings)) {
            return printer.summary(CopyRun.follow(reader, spec.getScanId(), printer, Duration.ofDays(7)));
        }
    }

    private static int topicPartitions() {
        try {
            return WorkerSettings.positive(System.getenv(), WorkerSettings.TOPIC_PARTITIONS, 12);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }
}
