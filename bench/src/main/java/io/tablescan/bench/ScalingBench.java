package io.tablescan.bench;

import io.tablescan.cli.TablescanCommand;
import io.tablescan.cli.UserError;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.local.FreePorts;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.testkit.InMemoryTableStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The same copy with its workers as 1, 2 or 4 processes of each kind (discovery, partition, copy) plus one ledger,
 * each a child JVM with a fixed number of requests in flight, against two model accounts over HTTP (the generated
 * source, the checking destination; 100 ms a request, paced to the service's targets). Rows/s are the ledger's,
 * from seeding to the scan's end; CPU is every process's during the scan.
 */
final class ScalingBench implements BenchCommand.BenchRunner {
    static final List<String> KINDS = List.of("discovery", "partition", "copy");
    /** Enough for 4 processes of a kind to share every topic evenly. */
    private static final int TOPIC_PARTITIONS = 8;

    private final EmbeddedKafkaBroker broker;
    private final BenchCommand.Scenario scenario;
    private final GeneratedTable table;
    private final int inFlight;
    private final int readInFlight;
    private final Path logs;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ScalingBench(EmbeddedKafkaBroker broker, BenchCommand.Scenario scenario, GeneratedTable table, int inFlight,
            int readInFlight) throws IOException {
        this.broker = broker;
        this.scenario = scenario;
        this.table = table;
        this.inFlight = inFlight;
        this.readInFlight = readInFlight;
        this.logs = Files.createTempDirectory("tablescan-scaling-");
        System.out.println("  worker logs in " + logs);
    }

    /** The processes of each kind a strategy names: "1proc", "2procs", "4procs". */
    static int processes(String strategy) {
        return Integer.parseInt(strategy.replaceAll("\\D", ""));
    }

    /**
     * Each count's rows/s against one process's, from seeding to the end and in the steady part of the run (from
     * 10% to 90% of the rows written: without the pipeline's filling and the last items' tail, which do not scale).
     */
    static String ratios(List<BenchCommand.Run> medians) {
        BenchCommand.Run one = medians.getFirst();
        StringBuilder out = new StringBuilder("scaling from seeding:");
        medians.stream().skip(1).forEach(r -> out.append(String.format(java.util.Locale.ROOT, " %d/1 %.2fx",
                processes(r.strategy()), r.rowsPerSecond() / one.rowsPerSecond())));
        out.append("; steady (10% to 90% of the rows):");
        medians.forEach(r -> out.append(String.format(java.util.Locale.ROOT, " %s %,.0f rows/s", r.strategy(), steady(r))));
        medians.stream().skip(1).forEach(r -> out.append(String.format(java.util.Locale.ROOT, ", %d/1 %.2fx",
                processes(r.strategy()), steady(r) / steady(one))));
        return out.toString();
    }

    /** Rows/s between the first samples at 10% and at 90% of the run's rows. */
    static double steady(BenchCommand.Run run) {
        double[] from = null;
        double[] to = null;
        for (double[] p : run.points()) {
            if (from == null && p[1] >= run.rows() * 0.1) {
                from = p;
            }
            if (to == null && p[1] >= run.rows() * 0.9) {
                to = p;
            }
        }
        return from == null || to == null || to[0] <= from[0] ? run.rowsPerSecond() : (to[1] - from[1]) / (to[0] - from[0]);
    }

    @Override
    public BenchCommand.Run run(String name, String strategy, int index) throws Exception {
        InMemoryTableStore source = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, scenario.latency())
                .limit(scenario.limits());
        InMemoryTableStore destination = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, scenario.latency())
                .limit(scenario.limits());
        source.attach("source", table);
        CheckingTable copy = new CheckingTable(table);
        destination.attach("copy", copy);
        List<Process> children = new ArrayList<>();
        try (ModelAccount sourceAccount = ModelAccount.start(source);
                ModelAccount destinationAccount = ModelAccount.start(destination)) {
            Map<String, String> env = new HashMap<>(Map.of(
                    "KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                    "TABLESCAN_ACCOUNT_SOURCE_CONNECTION_STRING", sourceAccount.connectionString(),
                    "TABLESCAN_ACCOUNT_DESTINATION_CONNECTION_STRING", destinationAccount.connectionString(),
                    WorkerSettings.TOPIC_PARTITIONS, Integer.toString(TOPIC_PARTITIONS),
                    WorkerSettings.MAX_IN_FLIGHT, Integer.toString(inFlight),
                    WorkerSettings.READ_IN_FLIGHT, Integer.toString(readInFlight),
                    "TABLESCAN_METRICS_HOST", "127.0.0.1"));
            List<Integer> ports = new ArrayList<>();
            int n = processes(strategy);
            for (String kind : KINDS) {
                for (int i = 1; i <= n; i++) {
                    children.add(start(strategy + "-" + index + "-" + kind + "-" + i, env, ports, "worker", kind));
                }
            }
            children.add(start(strategy + "-" + index + "-ledger", env, ports, "ledger"));
            for (int i = 0; i < children.size(); i++) {
                int port = ports.get(i);
                Process child = children.get(i);
                if (!FreePorts.await(() -> ready(port), Duration.ofMinutes(3), child::isAlive)) {
                    throw new UserError(UserError.FAILED, "a worker of the scaling bench did not get ready; its log is in "
                            + logs);
                }
            }
            return measure(name, strategy, children, source, destination, copy);
        } finally {
            stop(children);
        }
    }

    private BenchCommand.Run measure(String name, String strategy, List<Process> children, InMemoryTableStore source,
            InMemoryTableStore destination, CheckingTable copy) {
        var spec = BenchCommand.copySpec("prefix", "copy", null);
        KafkaSettings kafka = KafkaSettings.of(broker.bootstrapServers());
        double cpuBefore = cpuSeconds(children);
        try (RunMeter meter = RunMeter.start(); ScanStatusReader reader = new ScanStatusReader(kafka)) {
            List<double[]> points = new ArrayList<>(List.of(new double[] {0, 0}));
            ScanStarter.start(kafka, spec);
            ScanTotals t = reader.await(spec.getScanId(), ScanTotals::ended, Duration.ofHours(2), Duration.ofMillis(250),
                    s -> points.add(new double[] {s.elapsedMillis() / 1e3, s.rowsWritten()}));
            double cpu = cpuSeconds(children) - cpuBefore + meter.cpuSeconds();
            if (!t.complete() || !copy.exact()) {
                throw new UserError(UserError.FAILED, "the " + strategy + " copy is not exact: " + copy.missing()
                        + " rows missing, " + copy.wrong() + " wrong writes");
            }
            double seconds = t.elapsedMillis() / 1e3;
            points.add(new double[] {seconds, t.rowsWritten()});
            return new BenchCommand.Run(name, strategy, t.rowsWritten(), seconds,
                    source.requests() + destination.requests(), meter.megabytes(), cpu, points);
        }
    }

    private Process start(String label, Map<String, String> env, List<Integer> ports, String... args)
            throws IOException {
        int port = FreePorts.find();
        ports.add(port);
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), TablescanCommand.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(logs.resolve(label + ".log").toFile());
        builder.environment().putAll(env);
        builder.environment().put("TABLESCAN_METRICS_PORT", Integer.toString(port));
        return builder.start();
    }

    /** True once the process's /health/ready answers 200. */
    private boolean ready(int port) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                    .timeout(Duration.ofSeconds(2)).build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The CPU the processes have used so far, in core-seconds. */
    private static double cpuSeconds(List<Process> processes) {
        return processes.stream().mapToDouble(p -> p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0))
                .sum();
    }

    /** A graceful stop (SIGTERM) for each, then SIGKILL to any still running after 30 s. */
    private static void stop(List<Process> processes) throws InterruptedException {
        processes.forEach(Process::destroy);
        for (Process p : processes) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
