package io.tablescan.bench;

import io.tablescan.cli.BenchPlaceholder;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.local.AzuriteServer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.ScalabilityTargets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The bench's command: its options, the dispatch to each scenario and the printing of their runs and medians. Off
 * the tool's data flow, and about 380 lines because each of its twelve scenarios has its few lines of set-up and
 * report here; the scenarios' own machinery (generated tables, model accounts, process scaling, the mirror,
 * export and backup-set runs) is in classes of their own.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = BenchPlaceholder.DESCRIPTION)
final class BenchCommand implements Callable<Integer> {
    /** What a run checked: every strategy fails its run when its result is not exact. */
    static String outcome(String strategy) {
        return switch (strategy) {
            case "verify" -> "tables equal";
            case "export", "parquet", "csv" -> "every row in the files once";
            case "mirror" -> "destination equal to the source";
            case "full", "incremental" -> "backup set complete";
            default -> "copy exact";
        };
    }

    /**
     * What a scenario copies, how slow its table service is, the strategies it compares, and the requests in
     * flight per writing and per reading worker.
     */
    record Scenario(String name, int rows, Duration latency, ScalabilityTargets limits, List<String> strategies,
            int inFlight, int readInFlight) {}

    static final Map<String, Scenario> SCENARIOS = byName(
            // export: both stages to files on local disk (JSON lines, then Parquet and CSV: the formats A/B in one
            // run); import: those files into a checking destination
            new Scenario("export", 1_000_000, Duration.ZERO, ScalabilityTargets.NONE,
                    List.of("export", "parquet", "csv"), 32, 32),
            new Scenario("import", 1_000_000, Duration.ZERO, ScalabilityTargets.NONE,
                    List.of("import"), 32, 32),
            new Scenario("pipeline", 1_000_000, Duration.ZERO, ScalabilityTargets.NONE,
                    List.of("prefix"), 32, 32),
            new Scenario("latency", 200_000, Duration.ofMillis(100), ScalabilityTargets.NONE,
                    List.of("serial", "prefix"), 4096, 4096),
            new Scenario("azurite", 100_000, Duration.ZERO, ScalabilityTargets.NONE,
                    List.of("direct", "prefix", "serial"), 32, 32),
            // A prefix copy into a new table, then a verify of the source against that copy (both tables read).
            // A copy into an empty table, then a mirror into one that differs from the source in 1% of its rows.
            new Scenario("mirror", 100_000, Duration.ZERO, ScalabilityTargets.NONE,
                    List.of("copy", "mirror"), 32, 32),
            new Scenario("verify", 100_000, Duration.ZERO, ScalabilityTargets.NONE,
                    List.of("copy", "verify"), 32, 32),
            // Paced accounts: 8 reads of 1,000 rows in flight keep the source busy; more would only queue.
            new Scenario("seed-replica", 3_558_594, Duration.ofMillis(100),
                    new ScalabilityTargets(20_000, 2_000), List.of("prefix"), 2048, 8),
            // The same accounts answering 503 to half the requests over their targets (the others late): back-off.
            new Scenario("seed-replica-503", 3_558_594, Duration.ofMillis(100),
                    new ScalabilityTargets(20_000, 2_000, true), List.of("prefix"), 2048, 8),
            // The same source exported to files on local disk (the export's goal is the copy's: 3.5 minutes).
            new Scenario("seed-replica-export", 3_558_594, Duration.ofMillis(100),
                    new ScalabilityTargets(20_000, 2_000), List.of("export", "parquet"), 2048, 8),
            // Five tables of one such account, 3,558,594 rows together: a full backup set, 1% of the rows changed,
            // an incremental set (see BackupSetBench); the command's own defaults, as a user runs it.
            new Scenario("backup-set", 3_558_594, Duration.ofMillis(100),
                    new ScalabilityTargets(20_000, 2_000), List.of("full", "incremental"), 2048, 8),
            // The seed-replica accounts over HTTP; the workers as 1, 2 and 4 processes of each kind, each process
            // with 8 writes and 4 reads in flight, so that one process is far below the accounts' targets.
            new Scenario("scaling", 40_000, Duration.ofMillis(100), new ScalabilityTargets(20_000, 2_000),
                    List.of("1proc", "2procs", "4procs"), 8, 4));

    private static Map<String, Scenario> byName(Scenario... scenarios) {
        return java.util.Arrays.stream(scenarios).collect(java.util.stream.Collectors.toMap(Scenario::name, s -> s));
    }

    @Option(names = "--scenario", defaultValue = "pipeline",
            description = "pipeline, latency, azurite, seed-replica, seed-replica-503, seed-replica-export, backup-set, verify, "
                    + "mirror, export, import or scaling "
                    + "(default ${DEFAULT-VALUE}).")
    String scenarioName;

    @Option(names = "--rows", description = "Rows in the table (default: the scenario's).")
    Integer rows;

    @Option(names = "--runs", defaultValue = "1", description = "Repeats each strategy; medians are reported (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--in-flight", description = "Table requests in flight per worker (default: the scenario's).")
    Integer inFlight;

    @Option(names = "--read-in-flight",
            description = "Table requests in flight per reading worker, discovery and partition (default: the scenario's).")
    Integer readInFlight;

    @Option(names = "--max-rate", paramLabel = "ROWS_PER_S",
            description = "Caps the copy's reads (as copy --max-rate) and reports how closely the run held the cap.")
    Long maxRate;

    @Option(names = "--json", description = "Writes every run and the medians as JSON to this file.")
    Path json;

    @Option(names = "--chart", description = "Draws rows copied over time, one line per run, to this PNG file.")
    Path chart;

    record Run(String scenario, String strategy, long rows, double seconds, long requests, long peakHeapMb,
            double cpuSeconds, List<double[]> points) {
        double rowsPerSecond() {
            return rows / Math.max(seconds, 0.001);
        }

        /** The process's CPU seconds per million rows (core-seconds: 2 busy cores for 1 s count 2). */
        double cpuSecondsPerMillionRows() {
            return cpuSeconds * 1e6 / Math.max(rows, 1);
        }

        String toJson() {
            return String.format(Locale.ROOT, "{\"scenario\":\"%s\",\"strategy\":\"%s\",\"rows\":%d,\"seconds\":%.3f,"
                    + "\"rowsPerSecond\":%.1f,\"requests\":%d,\"peakHeapMb\":%d,\"cpuSeconds\":%.3f,"
                    + "\"cpuSecondsPerMillionRows\":%.1f}", scenario, strategy, rows, seconds, rowsPerSecond(), requests,
                    peakHeapMb, cpuSeconds, cpuSecondsPerMillionRows());
        }
    }

    @Override
    public Integer call() throws Exception {
        Scenario scenario = SCENARIOS.get(scenarioName);
        if (scenario == null) {
            throw new UserError(UserError.USAGE, "--scenario must be one of " + String.join(", ",
                    SCENARIOS.keySet().stream().sorted().toList()) + ", got '" + scenarioName + "'");
        }
        int n = rows != null ? rows : scenario.rows();
        int concurrency = inFlight != null ? inFlight : scenario.inFlight();
        int readConcurrency = readInFlight != null ? readInFlight : inFlight != null ? inFlight : scenario.readInFlight();
        if (n < 1 || runs < 1 || concurrency < 1 || readConcurrency < 1) {
            throw new UserError(UserError.USAGE, "--rows, --runs, --in-flight and --read-in-flight must be at least 1");
        }
        System.out.printf("bench %s: %,d rows, %d ms a request, %d requests in flight per worker (%d per reading worker), %d run(s)%n",
                scenario.name(), n, scenario.latency().toMillis(), concurrency, readConcurrency, runs);
        GeneratedTable table = new GeneratedTable(n);
        List<Run> results = new ArrayList<>();
        boolean backupSet = scenario.name().equals("backup-set"); // the backup command starts its own broker
        try (EmbeddedKafkaBroker broker = backupSet ? null : EmbeddedKafkaBroker.start();
                AzuriteServer azurite = scenario.name().equals("azurite") || scenario.name().equals("verify")
                        ? AzuriteServer.start() : null) {
            BenchRunner runner = backupSet ? new BackupSetBench(scenario, n)
                    : scenario.name().equals("verify") ? new VerifyRunner(broker, azurite, table, concurrency)
                    : azurite != null ? new AzuriteRunner(broker, azurite, table, concurrency)
                    : scenario.name().equals("scaling")
                    ? new ScalingBench(broker, scenario, table, concurrency, readConcurrency)
                    : scenario.name().equals("mirror") ? new MirrorBench(broker, table, concurrency, readConcurrency)
                    : scenario.strategies().contains("export") || scenario.strategies().contains("import")
                    ? new BackupBench(broker, table, scenario, concurrency, readConcurrency)
                    : new InMemoryRunner(broker, scenario, table, concurrency, readConcurrency,
                            maxRate == null ? null : Map.of("read", maxRate));
            for (int i = 1; i <= runs; i++) {
                for (String strategy : scenario.strategies()) {
                    Run run = runner.run(scenario.name(), strategy, i);
                    System.out.printf("  %-7s run %d: %,d rows in %.1f s: %,.0f rows/s, %,d requests, peak heap %,d MB,"
                            + " CPU %.1f s (%.0f µs a row), %s%n", run.strategy(), i, run.rows(), run.seconds(),
                            run.rowsPerSecond(), run.requests(), run.peakHeapMb(), run.cpuSeconds(),
                            run.cpuSecondsPerMillionRows(), outcome(run.strategy()));
                    if (maxRate != null) {
                        System.out.println("  " + RateHeld.describe(maxRate, run.seconds(), run.points()));
                    }
                    results.add(run);
                }
            }
            if (runner instanceof AutoCloseable files) {
                files.close(); // the export and backup scenarios' files
            }
        }
        List<Run> medians = scenario.strategies().stream().map(s -> median(results, s)).toList();
        if (runs > 1) {
            medians.forEach(m -> System.out.printf("  %-7s median: %,.0f rows/s (%.1f s), peak heap %,d MB, CPU %.0f µs a"
                    + " row%n", m.strategy(), m.rowsPerSecond(), m.seconds(), m.peakHeapMb(), m.cpuSecondsPerMillionRows()));
        }
        if (scenario.name().equals("scaling")) {
            System.out.println("  " + ScalingBench.ratios(medians));
        }
        if (json != null) {
            Files.writeString(json, "{\"results\":[" + String.join(",", results.stream().map(Run::toJson).toList())
                    + "],\"medians\":[" + String.join(",", medians.stream().map(Run::toJson).toList()) + "]}\n");
        }
        if (chart != null) {
            BenchChart.write(chart, String.format(Locale.ROOT, "tablescan bench %s, %,d rows", scenario.name(), n),
                    results.stream().map(r -> new BenchChart.Line(r.strategy() + (runs > 1 ? " #" + (results.stream()
                            .filter(x -> x.strategy().equals(r.strategy())).toList().indexOf(r) + 1) : ""),
                            r.points())).toList());
        }
        return 0;
    }

    /** The run with the median duration among a strategy's runs. */
    private static Run median(List<Run> results, String strategy) {
        List<Run> sorted = results.stream().filter(r -> r.strategy().equals(strategy))
                .sorted(Comparator.comparingDouble(Run::seconds)).toList();
        return sorted.get(sorted.size() / 2);
    }

    /** Runs one strategy once on fresh destination tables and checks the copy. */
    interface BenchRunner {
        Run run(String scenario, String strategy, int index) throws Exception;
    }

    record Measured(ScanTotals totals, double seconds, List<double[]> points, long peakHeapMb, double cpuSeconds) {}

    /** A copy through the embedded broker and in-process workers, sampled every 250 ms for the chart. */
    static Measured copyThroughKafka(EmbeddedKafkaBroker broker, Accounts accounts, String strategy, String destination,
            int inFlight, int readInFlight) {
        return throughKafka(broker, accounts, copySpec(strategy, destination, null), inFlight, readInFlight,
                ScanTotals::rowsWritten);
    }

    /** A copy of the source into {@code destination} with this strategy, capped by {@code limits} (null: none). */
    static io.tablescan.schema.ScanSpec copySpec(String strategy, String destination, Map<String, Long> limits) {
        return ScanSpecs.copy().from(new TableRef("source", "source")).to(new TableRef("destination", destination))
                .pageSize(1000).strategy(ScanStrategy.valueOf(strategy.toUpperCase(Locale.ROOT))).limits(limits).build();
    }

    /** A scan through the embedded broker and in-process workers, its {@code progress} sampled every 250 ms. */
    static Measured throughKafka(EmbeddedKafkaBroker broker, Accounts accounts, io.tablescan.schema.ScanSpec spec,
            int inFlight, int readInFlight, java.util.function.ToLongFunction<ScanTotals> progress) {
        List<double[]> points = new ArrayList<>();
        try (RunMeter heap = RunMeter.start()) {
            long start = System.nanoTime();
            CopyRun.Outcome outcome = CopyRun.run(WorkerSettings.local(broker.bootstrapServers(), accounts, inFlight).withReadInFlight(readInFlight), spec,
                    RunOptions.defaults().withTimeout(Duration.ofHours(6)).withProgress(Duration.ofMillis(250),
                            t -> points.add(new double[] {(System.nanoTime() - start) / 1e9, progress.applyAsLong(t)})));
            // Time from seeding, as the outcome counts it (the workers' start-up before it is not the copy's).
            double offset = (System.nanoTime() - start) / 1e9 - outcome.seconds();
            List<double[]> fromSeed = new ArrayList<>(List.of(new double[] {0, 0}));
            points.stream().filter(p -> p[0] >= offset).forEach(p -> fromSeed.add(new double[] {p[0] - offset, p[1]}));
            fromSeed.add(new double[] {outcome.seconds(), progress.applyAsLong(outcome.totals())});
            return new Measured(outcome.totals(), outcome.seconds(), fromSeed, heap.megabytes(), heap.cpuSeconds());
        }
    }
}
