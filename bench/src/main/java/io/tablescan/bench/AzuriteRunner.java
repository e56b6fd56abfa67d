package io.tablescan.bench;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablescan.azure.AzureTableStore;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.AzuriteServer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runner.TableComparer;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableStores;
import java.util.List;
import java.util.stream.IntStream;

/** One Azurite: the source filled once; a direct copy (no Kafka) or a copy through Kafka into a new table. */
final class AzuriteRunner implements BenchCommand.BenchRunner {
    private final EmbeddedKafkaBroker broker;
    private final TableStore store;
    /** Drops each copy once checked: Azurite keeps tables in memory, and a fuller one is slower. */
    private final TableServiceClient tables;
    private final GeneratedTable table;
    private final int inFlight;

    AzuriteRunner(EmbeddedKafkaBroker broker, AzuriteServer azurite, GeneratedTable table, int inFlight) {
        this.broker = broker;
        this.store = TableStores.forCommand(AzureTableStore.fromConnectionString(azurite.connectionString()));
        this.tables = new TableServiceClientBuilder().connectionString(azurite.connectionString()).buildClient();
        this.table = table;
        this.inFlight = inFlight;
        System.out.printf("  filling Azurite with %,d rows...%n", table.size());
        SampleTable.write(store, "source", table.all(), 16);
    }

    @Override
    public BenchCommand.Run run(String name, String strategy, int index) throws Exception {
        String destination = strategy + "copy" + index;
        BenchCommand.Measured measured;
        long requests;
        if (strategy.equals("direct")) {
            try (RunMeter heap = RunMeter.start()) {
                long start = System.nanoTime();
                List<String> keys = IntStream.range(0, table.partitionOf(table.size() - 1) + 1)
                        .mapToObj(table::partitionKey).toList();
                requests = DirectCopy.copy(store, "source", store, destination, keys, inFlight, inFlight);
                double seconds = (System.nanoTime() - start) / 1e9;
                measured = new BenchCommand.Measured(null, seconds,
                        List.of(new double[] {0, 0}, new double[] {seconds, table.size()}), heap.megabytes(),
                        heap.cpuSeconds());
            }
        } else {
            Accounts accounts = new Accounts(alias -> null).register("source", store).register("destination", store);
            measured = BenchCommand.copyThroughKafka(broker, accounts, strategy, destination, inFlight, inFlight);
            requests = measured.totals().requests(); // reads and writes
        }
        TableComparer.Result check = TableComparer.compare(store, "source", store, destination);
        if ((measured.totals() != null && !measured.totals().complete()) || !check.equal()) {
            throw new UserError(UserError.FAILED, "the " + strategy + " copy is not exact: " + check.examples());
        }
        tables.deleteTable(destination);
        return new BenchCommand.Run(name, strategy, check.sourceRows(), measured.seconds(), requests, measured.peakHeapMb(),
                measured.cpuSeconds(), measured.points());
    }
}
