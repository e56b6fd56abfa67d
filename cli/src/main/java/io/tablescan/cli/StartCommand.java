package io.tablescan.cli;

import io.tablescan.control.ScanStarter;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
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

    @Option(names = "--source-account", required = true, paramLabel = "ALIAS",
            description = "Account alias of the source.")
    String sourceAccount;

    @Option(names = "--source-table", required = true, paramLabel = "TABLE", description = "The table to copy.")
    String sourceTable;

    @Option(names = "--dest-account", required = true, paramLabel = "ALIAS",
            description = "Account alias of the destination.")
    String destAccount;

    @Option(names = "--dest-table", required = true, paramLabel = "TABLE", description = "The table to copy into, created if "
            + "missing; not the source itself.")
    String destTable;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Option(names = "--wait", description = "Follow the scan's progress until it ends; exit like copy (needs a running ledger).")
    boolean await;

    @Mixin
    WaitOptions wait = new WaitOptions();

    @Override
    public Integer call() {
        Checks.tableName("--source-table", sourceTable);
        Checks.tableName("--dest-table", destTable);
        scan.validate();
        Checks.accountAlias("--source-account", sourceAccount);
        Checks.accountAlias("--dest-account", destAccount);
        wait.only(await, "--wait");
        Accounts local = Accounts.fromEnvironment();
        Checks.notTheSource(local, sourceAccount, sourceTable, destAccount, destTable);
        KafkaSettings settings = cluster.settings();
        // When this machine has the source's credentials too, a missing source table is caught now.
        if (local.configured(sourceAccount)) {
            Checks.tableExists(Checks.account(local, sourceAccount), sourceTable, "source");
        }
        if (local.configured(destAccount)) {
            Checks.warnIfHoldsRows(Checks.account(local, destAccount), destTable, System.err);
        }
        try (Admin admin = settings.newAdmin()) {
            Topics.ensure(admin, settings.namespace(), topicPartitions(), Optional.empty(), Duration.ofSeconds(60));
        }
        var spec = scan.applyTo(ScanSpecs.copy().from(new TableRef(sourceAccount, sourceTable))
                .to(new TableRef(destAccount, destTable))).build();
        ScanStarter.start(settings, spec);
        System.out.println(spec.getScanId());
        if (!await) {
            return 0;
        }
        ProgressPrinter printer = new ProgressPrinter(System.out)
                .hints(ProgressPrinter.Hints.cluster(settings.bootstrapServers()));
        try (ScanStatusReader reader = new ScanStatusReader(settings)) {
            return printer.summary(wait.await(reader, spec.getScanId(), ScanTotals::ended, printer));
        }
    }

    private static int topicPartitions() {
        try {
            return WorkerSettings.positive(System.getenv(), WorkerSettings.TOPIC_PARTITIONS, Topics.DEFAULT_PARTITIONS);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }
}
