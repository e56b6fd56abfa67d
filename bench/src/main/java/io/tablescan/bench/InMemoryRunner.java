package io.tablescan.bench;

import io.tablescan.cli.UserError;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.InMemoryTableStore;
import java.util.Locale;
import java.util.Map;

/** In-memory tables: a generated source (no memory per row) and a destination that checks every write. */
record InMemoryRunner(EmbeddedKafkaBroker broker, BenchCommand.Scenario scenario, GeneratedTable table, int inFlight,
        int readInFlight, Map<String, Long> limits)
        implements BenchCommand.BenchRunner {
    @Override
    public BenchCommand.Run run(String name, String strategy, int index) {
        InMemoryTableStore source = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, scenario.latency())
                .limit(scenario.limits());
        InMemoryTableStore destination = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE,
                scenario.latency()).limit(scenario.limits());
        source.attach("source", table);
        CheckingTable copy = new CheckingTable(table);
        destination.attach("copy", copy);
        BigPartitionReads reads = new BigPartitionReads(source);
        Accounts accounts = new Accounts(alias -> null).register("source", reads).register("destination", destination);
        BenchCommand.Measured measured = limits == null
                ? BenchCommand.copyThroughKafka(broker, accounts, strategy, "copy", inFlight, readInFlight)
                // a capped run is measured as the service sees it: rows the source served, sampled every 250 ms
                : BenchCommand.throughKafka(broker, accounts, BenchCommand.copySpec(strategy, "copy", limits), inFlight,
                        readInFlight, t -> source.rowsServed());
        if (scenario.latency().isPositive()) {
            System.out.println(reads.summary());
        }
        if (!measured.totals().complete() || !copy.exact()) {
            throw new UserError(UserError.FAILED, "the " + strategy + " copy is not exact: " + copy.missing()
                    + " rows missing, " + copy.wrong() + " wrong writes");
        }
        if (scenario.limits().throttles()) {
            ScanTotals t = measured.totals();
            System.out.printf(Locale.ROOT, "  %,d requests throttled (503), %,d retried: %.4f retries a row%n",
                    t.throttles(), t.retries(), (double) t.retries() / Math.max(1, t.rowsWritten()));
        }
        return new BenchCommand.Run(name, strategy, measured.totals().rowsWritten(), measured.seconds(),
                source.requests() + destination.requests(), measured.peakHeapMb(), measured.cpuSeconds(), measured.points());
    }
}
