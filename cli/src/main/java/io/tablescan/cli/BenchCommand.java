package io.tablescan.cli;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.table.Accounts;
import io.tablescan.table.InMemoryTableStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Copies a sample table through Kafka and the three workers, between in-memory table services, "
                + "and measures it. Scenarios: pipeline (no latency: the pipeline's own ceiling), latency (100 ms a "
                + "request: prefix against serial).")
final class BenchCommand implements Callable<Integer> {
    enum Scenario { pipeline, latency }

    @Option(names = "--scenario", defaultValue = "pipeline", description = "pipeline or latency (default ${DEFAULT-VALUE}).")
    Scenario scenario;

    @Option(names = "--rows", description = "Rows in the sample table (default: 1,000,000 for pipeline, 200,000 for latency).")
    Integer rows;

    @Option(names = "--json", description = "Writes the results as JSON to this file.")
    Path json;

    record Run(String scenario, String strategy, long rows, double seconds, long requests, long peakHeapMb) {
        double rowsPerSecond() {
            return rows / Math.max(seconds, 0.001);
        }

        String toJson() {
            return String.format(Locale.ROOT, "{\"scenario\":\"%s\",\"strategy\":\"%s\",\"rows\":%d,\"seconds\":%.3f,"
                    + "\"rowsPerSecond\":%.1f,\"requests\":%d,\"peakHeapMb\":%d}", scenario, strategy, rows, seconds,
                    rowsPerSecond(), requests, peakHeapMb);
        }
    }

    @Override
    public Integer call() throws IOException {
        int n = rows != null ? rows : scenario == Scenario.pipeline ? 1_000_000 : 200_000;
        if (n < 1) {
            throw new UserError(UserError.USAGE, "--rows must be at least 1");
        }
        Duration latency = scenario == Scenario.latency ? Duration.ofMillis(100) : Duration.ZERO;
        List<ScanStrategy> strategies = scenario == Scenario.latency
                ? List.of(ScanStrategy.SERIAL, ScanStrategy.PREFIX) : List.of(ScanStrategy.PREFIX);
        System.out.printf("bench %s: %,d rows, %d ms a request%n", scenario, n, latency.toMillis());
        List<Run> runs = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            for (ScanStrategy strategy : strategies) {
                runs.add(run(broker, n, latency, strategy));
            }
        }
        if (json != null) {
            Files.writeString(json, "{\"results\":[" + String.join(",", runs.stream().map(Run::toJson).toList()) + "]}\n");
        }
        return 0;
    }

    private Run run(EmbeddedKafkaBroker broker, int n, Duration latency, ScanStrategy strategy) {
        InMemoryTableStore source = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, latency);
        InMemoryTableStore destination = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, latency);
        source.createTableIfNotExists("source");
        writeWithoutLatency(source, n);
        long requestsBefore = source.requests() + destination.requests();
        resetPeakHeap();
        Accounts accounts = new Accounts(name -> null).register("source", source).register("destination", destination);
        var spec = ScanSpecs.copy(new TableRef("source", "source"), new TableRef("destination", "copy"), 1000, strategy);
        CopyRun.Outcome outcome = CopyRun.run(broker.bootstrapServers(), accounts, spec,
                new ProgressPrinter(new PrintStream(OutputStream.nullOutputStream())), Duration.ofHours(6));
        long requests = source.requests() + destination.requests() - requestsBefore;
        Run run = new Run(scenario.name(), strategy.name().toLowerCase(Locale.ROOT), outcome.totals().rowsWritten(),
                outcome.seconds(), requests, peakHeapMb());
        TableComparer.Result check = TableComparer.compare(source, "source", destination, "copy");
        System.out.printf("  %-7s %,d rows in %.1f s: %,.0f rows/s, %,d requests, peak heap %,d MB, copy %s%n",
                run.strategy(), run.rows(), run.seconds(), run.rowsPerSecond(), run.requests(), run.peakHeapMb(),
                check.equal() ? "exact" : "DIFFERENT");
        if (!outcome.totals().complete() || !check.equal()) {
            throw new UserError(UserError.FAILED, "the " + strategy + " copy is not exact");
        }
        return run;
    }

    /** Fills the source without simulated latency: only the copy is measured. */
    private static void writeWithoutLatency(InMemoryTableStore source, int n) {
        InMemoryTableStore.Loader loader = source.loader("source");
        SampleTable.rows(n).forEach(loader::put);
    }

    private static void resetPeakHeap() {
        System.gc();
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static long peakHeapMb() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                bytes += pool.getPeakUsage().getUsed();
            }
        }
        return bytes / (1024 * 1024);
    }
}
