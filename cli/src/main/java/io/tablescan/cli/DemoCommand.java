package io.tablescan.cli;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.azure.RestTableReader;
import io.tablescan.local.AzuriteServer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.QueryOptions;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableStores;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Starts Azurite and an embedded Kafka broker, fills a sample table, copies it with all three "
                + "workers in this process, verifies the copy row by row. Exit 0 only if the copy is exact.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "100000", description = "Rows in the sample table (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--page-size", defaultValue = "" + ScanSpecs.DEFAULT_PAGE_SIZE,
            description = "Rows per query page, 1 to " + QueryOptions.MAX_PAGE_SIZE + " (default ${DEFAULT-VALUE}).")
    int pageSize;

    @Override
    public Integer call() {
        if (rows < 1) {
            throw new UserError(UserError.USAGE, "--rows must be at least 1");
        }
        Checks.pageSize(pageSize);
        ProgressPrinter printer = new ProgressPrinter(System.out);
        System.out.println("starting Azurite and an embedded Kafka broker...");
        try (Interrupt interrupt = Interrupt.onSigint(); AzuriteServer azurite = AzuriteServer.start();
                EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            TableStore store = TableStores.forCommand(AzureTableStore.fromConnectionString(azurite.connectionString()));
            System.out.printf("filling table demosource with %,d rows...%n", rows);
            long fillStart = System.nanoTime();
            SampleTable.write(store, "demosource", SampleTable.rows(rows), 16, interrupt::requested);
            if (interrupt.requested()) {
                throw interrupted("while filling the sample table, before the copy");
            }
            System.out.printf("  filled in %.1f s%n", (System.nanoTime() - fillStart) / 1e9);

            Accounts accounts = new Accounts(name -> null).register("local", store);
            var spec = ScanSpecs.copy().from(new TableRef("local", "demosource")).to(new TableRef("local", "democopy"))
                    .pageSize(pageSize).strategy(ScanStrategy.PREFIX).build();
            CopyRun.Outcome outcome = CopyRun.run(CopyRun.settings(KafkaSettings.inProcess(broker.bootstrapServers()),
                    accounts, System.getenv()), spec, CliRun.options(printer, interrupt, System.getenv())
                    .withTimeout(Duration.ofHours(2)));
            if (outcome.interrupted()) {
                throw interrupted(String.format("during the copy (%,d rows copied)", outcome.totals().rowsCopied()));
            }
            int code = printer.summary(outcome.totals());

            System.out.println("verifying democopy against demosource row by row, every value as the service sends it...");
            RestTableReader rest = RestTableReader.fromConnectionString(azurite.connectionString());
            TableComparer.Result check = TableComparer.compare(rest, "demosource", rest, "democopy");
            System.out.printf("  source rows %,d, copied rows %,d, differences %,d%n", check.sourceRows(),
                    check.destinationRows(), check.differences());
            check.examples().forEach(e -> System.out.println("  " + e));
            if (!check.equal()) {
                System.out.println("demo FAILED: the copy differs from the source");
                return UserError.FAILED;
            }
            System.out.println(code == 0 ? "demo OK: the copy equals the source" : "demo FAILED");
            return code;
        } catch (IllegalStateException e) {
            throw new UserError(UserError.FAILED, e.getMessage());
        }
    }

    /** Thrown inside the try, so Azurite and the broker are stopped before the line is printed. */
    private static UserError interrupted(String when) {
        return new UserError(UserError.INTERRUPTED, "demo interrupted " + when + ": Azurite kept both tables in "
                + "memory, so nothing is left behind; run ./tablescan demo again for a whole run");
    }
}
