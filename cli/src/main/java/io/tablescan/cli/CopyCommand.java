package io.tablescan.cli;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.TableRef;
import io.tablescan.table.Accounts;
import io.tablescan.table.TableStore;
import io.tablescan.table.TableStoreException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "copy", mixinStandardHelpOptions = true,
        description = "Copies a table into another (created if missing) with all three workers in this process. "
                + "Exit 0 only if the scan completes with no failures.")
final class CopyCommand implements Callable<Integer> {
    @Option(names = "--source-connection-string", description = "Connection string of the source account.")
    String sourceConnectionString;

    @Option(names = "--source-account", description = "Or an account alias: credentials from TABLESCAN_ACCOUNT_<ALIAS>_* "
            + "(connection string, endpoint with SAS token, or endpoint alone for Entra ID).")
    String sourceAccount;

    @Option(names = "--source-table", required = true)
    String sourceTable;

    @Option(names = "--dest-table", required = true)
    String destTable;

    @Option(names = "--dest-connection-string", description = "Connection string of the destination account (default: the source's).")
    String destConnectionString;

    @Option(names = "--dest-account", description = "Or an account alias for the destination.")
    String destAccount;

    @Option(names = "--kafka", description = "HOST:PORT of a Kafka cluster to use (default: an embedded broker), in "
            + "topics and groups of this copy's own, removed when it ends.")
    String kafka;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Override
    public Integer call() {
        Checks.tableName("--source-table", sourceTable);
        Checks.tableName("--dest-table", destTable);
        scan.validPageSize();
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka); // checks TABLESCAN_NAMESPACE
        Accounts configured = Accounts.fromEnvironment(); // one store (and credential) per alias
        TableStore source = store(configured, "source", sourceConnectionString, sourceAccount);
        TableStore dest = destConnectionString == null && destAccount == null ? source
                : store(configured, "dest", destConnectionString, destAccount);
        Checks.tableExists(source, sourceTable, "source");
        try {
            dest.createTableIfNotExists(destTable);
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()),
                    "cannot create the destination table " + destTable + ": " + e.getMessage());
        }
        if (kafka != null) {
            Checks.kafkaReachable(cluster);
        }
        Accounts accounts = new Accounts(name -> null).register("source", source).register("destination", dest);
        var spec = ScanSpecs.copy(new TableRef("source", sourceTable), new TableRef("destination", destTable), scan.pageSize,
                scan.strategy);
        ProgressPrinter printer = new ProgressPrinter(System.out);
        if (kafka != null) { // a namespace of its own: no other scan's items, and its items for no other worker
            try (PrivateNamespace own = PrivateNamespace.on(cluster)) {
                var outcome = CopyRun.run(own.kafka(), accounts, spec, printer, Duration.ofDays(7));
                return printer.summary(outcome.totals());
            }
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            var outcome = CopyRun.run(broker.bootstrapServers(), accounts, spec, printer, Duration.ofDays(7));
            return printer.summary(outcome.totals());
        }
    }

    private static TableStore store(Accounts configured, String side, String connectionString, String alias) {
        if ((connectionString == null) == (alias == null)) {
            throw new UserError(UserError.USAGE, "give one of --" + side + "-connection-string and --" + side + "-account");
        }
        return alias != null ? Checks.account(configured, alias)
                : Checks.store("--" + side + "-connection-string", connectionString);
    }
}
