package io.tablescan.bench;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablescan.azure.AzureTableStore;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.local.AzuriteServer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableStores;

/**
 * One Azurite: a prefix copy of the source into a new table, then a verify of the source against it, which
 * reads both tables; rows/s of each count the source's rows. The verify must find the tables equal.
 */
final class VerifyRunner implements BenchCommand.BenchRunner {
    private final EmbeddedKafkaBroker broker;
    private final TableStore store;
    private final TableServiceClient tables;
    private final int inFlight;

    VerifyRunner(EmbeddedKafkaBroker broker, AzuriteServer azurite, GeneratedTable table, int inFlight) {
        this.broker = broker;
        this.store = TableStores.forCommand(AzureTableStore.fromConnectionString(azurite.connectionString()));
        this.tables = new TableServiceClientBuilder().connectionString(azurite.connectionString()).buildClient();
        this.inFlight = inFlight;
        System.out.printf("  filling Azurite with %,d rows...%n", table.size());
        SampleTable.write(store, "source", table.all(), 16);
    }

    @Override
    public BenchCommand.Run run(String name, String strategy, int index) {
        String copy = "verifycopy" + index;
        Accounts accounts = new Accounts(alias -> null).register("source", store).register("destination", store);
        if (strategy.equals("copy")) {
            BenchCommand.Measured measured = BenchCommand.copyThroughKafka(broker, accounts, "prefix", copy, inFlight,
                    inFlight);
            if (!measured.totals().complete()) {
                throw new UserError(UserError.FAILED, "the copy did not complete");
            }
            return new BenchCommand.Run(name, strategy, measured.totals().rowsWritten(), measured.seconds(),
                    measured.totals().requests(), measured.peakHeapMb(), measured.cpuSeconds(), measured.points());
        }
        var spec = ScanSpecs.verify().from(new TableRef("source", "source")).to(new TableRef("destination", copy))
                .pageSize(1000).strategy(ScanStrategy.PREFIX).build();
        BenchCommand.Measured measured = BenchCommand.throughKafka(broker, accounts, spec, inFlight, inFlight,
                ScanTotals::rowsRead);
        ScanTotals t = measured.totals();
        if (!t.complete()
                || t.counter(Counters.MISSING) + t.counter(Counters.DIFFERENT) + t.counter(Counters.EXTRA) > 0) {
            throw new UserError(UserError.FAILED, "the verify found differences in an exact copy: "
                    + t.counter(Counters.MISSING) + " missing, " + t.counter(Counters.DIFFERENT) + " different, "
                    + t.counter(Counters.EXTRA) + " extra");
        }
        tables.deleteTable(copy);
        return new BenchCommand.Run(name, strategy, t.rowsRead(), measured.seconds(), t.requests(), measured.peakHeapMb(),
                measured.cpuSeconds(), measured.points());
    }
}
