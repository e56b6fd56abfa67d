package io.tablescan.bench;

import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.MirrorJob;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runner.TableComparer;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.InMemoryTableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a mirror of two almost equal tables writes, against a copy into an empty table: the copy writes every row;
 * the mirror's destination already holds the source with 1% of its rows changed (half of them missing, half
 * different) and 0.1% extra, so it should write about 1% of the rows and delete the extras. Both count their
 * destination's write requests and rows; the mirror's result must equal the source.
 */
final class MirrorBench implements BenchCommand.BenchRunner {
    private final EmbeddedKafkaBroker broker;
    private final GeneratedTable table;
    private final int inFlight;
    private final int readInFlight;
    /** The copy's writes, for the mirror's share of them (the copy runs first in each round). */
    private long copyWriteRequests;
    private long copyRows;

    MirrorBench(EmbeddedKafkaBroker broker, GeneratedTable table, int inFlight, int readInFlight) {
        this.broker = broker;
        this.table = table;
        this.inFlight = inFlight;
        this.readInFlight = readInFlight;
    }

    @Override
    public BenchCommand.Run run(String name, String strategy, int index) {
        InMemoryTableStore source = new InMemoryTableStore();
        source.attach("source", table);
        InMemoryTableStore destination = new InMemoryTableStore();
        destination.createTableIfNotExists("copy");
        boolean mirror = strategy.equals("mirror");
        if (mirror) {
            SampleTable.write(destination, "copy", almostEqual(table.all()), 16);
        }
        Accounts accounts = new Accounts(alias -> null).register("source", source).register("destination", destination);
        var spec = (mirror ? ScanSpecs.of(Jobs.named(MirrorJob.NAME), Map.of()) : ScanSpecs.copy())
                .from(new TableRef("source", "source")).to(new TableRef("destination", "copy")).pageSize(1000)
                .strategy(ScanStrategy.PREFIX).build();
        BenchCommand.Measured measured = BenchCommand.throughKafka(broker, accounts, spec, inFlight, readInFlight,
                ScanTotals::rowsRead);
        ScanTotals t = measured.totals();
        TableComparer.Result check = TableComparer.compare(source, "source", destination, "copy");
        if (!t.complete() || !check.equal()) {
            throw new UserError(UserError.FAILED, "the " + strategy + " is not exact: " + check.examples());
        }
        long rowsChanged = t.rowsWritten() + t.counter(Counters.DELETED);
        if (!mirror) {
            copyWriteRequests = t.writeRequests();
            copyRows = t.rowsWritten();
        } else {
            System.out.printf(Locale.ROOT, "  mirror run %d: %,d rows written and %,d deleted in %,d write requests: "
                    + "%.1f%% of the copy's %,d rows, %.1f%% of its %,d write requests; %,d partitions differ (a "
                    + "request each at least)%n", index, t.rowsWritten(), t.counter(Counters.DELETED), t.writeRequests(),
                    100.0 * rowsChanged / Math.max(1, copyRows), copyRows,
                    100.0 * t.writeRequests() / Math.max(1, copyWriteRequests), copyWriteRequests,
                    partitionsThatDiffer(table.all()));
        }
        return new BenchCommand.Run(name, strategy, t.rowsRead(), measured.seconds(), t.writeRequests(),
                measured.peakHeapMb(), measured.cpuSeconds(), measured.points());
    }

    /** The partitions {@link #almostEqual} changes: a write request each at least (a batch is of one partition). */
    static long partitionsThatDiffer(List<Row> rows) {
        return java.util.stream.IntStream.range(0, rows.size()).filter(i -> i % 200 == 0 || i % 200 == 100
                || i % 1000 == 500).mapToObj(i -> rows.get(i).partitionKey()).distinct().count();
    }

    /** The rows with every 200th missing, every 200th (offset by 100) different, and every 1,000th with an extra. */
    static List<Row> almostEqual(List<Row> rows) {
        List<Row> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (i % 200 == 0) {
                continue;
            }
            if (i % 200 == 100) {
                List<RowProperty> properties = new ArrayList<>(row.properties());
                properties.add(new RowProperty("Stale", EdmType.STRING, "changed since the last mirror"));
                row = new Row(row.partitionKey(), row.rowKey(), properties);
            }
            out.add(row);
            if (i % 1000 == 500) {
                out.add(new Row(row.partitionKey(), row.rowKey() + "~extra", row.properties()));
            }
        }
        return out;
    }
}
