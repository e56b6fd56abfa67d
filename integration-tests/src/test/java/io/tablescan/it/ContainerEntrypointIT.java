package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No Docker engine here, so this runs what the image runs: the Dockerfile's ENTRYPOINT and ENV with each role's
 * compose command, and the compose health check command against it. A copy with injected faults then runs
 * through those processes while their Prometheus endpoints are scraped.
 */
class ContainerEntrypointIT {
    private static final String IMAGE_JAR = "/opt/tablescan/tablescan.jar";
    /** Enough items for scrapes mid-copy: with reads capped at {@link #READ_CAP} rows/s the copy lasts about 5 s. */
    private static final int ROWS = 2_000;
    private static final long READ_CAP = 400;

    @Test
    void theImagesCommandsAnswerHealthChecksAndTheirMetricsMoveDuringACopy() throws Exception {
        Image image = Image.read(Path.of("..", "Dockerfile"));
        List<String> healthcheck = healthcheck();
        var store = LocalServices.store();
        SampleTable.write(store, "metricsource", SampleTable.rows(ROWS), 16);
        String bootstrap = LocalServices.broker().bootstrapServers();
        Map<String, Integer> ports = new LinkedHashMap<>();
        Map<String, Start> starts = new LinkedHashMap<>();
        try (ChildProcesses children = new ChildProcesses("entrypoint")) {
            for (String role : List.of("discovery", "partition", "copy", "ledger")) {
                Files.deleteIfExists(children.log(role).toPath()); // logs are appended to: an earlier run's port lines
                Map<String, String> env = new HashMap<>(image.env());
                // The image's JVM options, and C1 and the serial collector as the tests' other children have: this
                // proves the entrypoint, ENV, health check and metrics, not C2's or G1's code, and four JVMs of them
                // through a copy cost a loaded run about a minute. The local job below runs the image's options alone.
                env.put("JAVA_TOOL_OPTIONS", env.get("JAVA_TOOL_OPTIONS") + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
                env.putAll(Map.of("KAFKA_BOOTSTRAP_SERVERS", bootstrap,
                        "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                        "TABLESCAN_TOPIC_PARTITIONS", "4",
                        "TABLESCAN_METRICS_HOST", "127.0.0.1",
                        "TABLESCAN_FAULT_RATE", "0.05", "TABLESCAN_FAULT_KINDS", "busy,timeout",
                        "TABLESCAN_LOG_FORMAT", "json")); // as the Kubernetes config sets it
                List<String> args = role.equals("ledger") ? List.of("ledger") : List.of("worker", role);
                starts.put(role, new Start(env, image.command(args)));
                ports.put(role, start(children, role, starts.get(role), ports.values()));
            }
            for (String role : starts.keySet()) { // each serves the port it was given, not one that was taken
                ports.put(role, serving(children, role, starts.get(role), ports));
            }
            for (var entry : ports.entrySet()) {
                assertThat(awaitHealthy(healthcheck, image, entry.getValue(), Duration.ofMinutes(2)))
                        .as(entry.getKey() + " answers the health check").isTrue();
                assertThat(PrometheusScrape.status(entry.getValue(), "/health/live")).isEqualTo(200);
            }

            KafkaSettings kafka = KafkaSettings.of(bootstrap);
            var spec = ScanSpecs.copy().from(new TableRef("emulator", "metricsource"))
                    .to(new TableRef("emulator", "metriccopy")).pageSize(100).strategy(ScanStrategy.PREFIX)
                    .limits(Map.of("read", READ_CAP)).build();
            ScanStarter.start(kafka, spec);
            TreeSet<Double> writtenWhileRunning = new TreeSet<>();
            ScanTotals totals;
            try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
                totals = reader.await(spec.getScanId(), ScanTotals::ended, Duration.ofMinutes(5), Duration.ofMillis(200),
                        t -> writtenWhileRunning.add(PrometheusScrape.of(ports.get("copy"))
                                .sum("tablescan_rows_written_total")));
            }
            assertThat(totals.complete()).isTrue();
            assertThat(totals.rowsWritten()).isEqualTo(ROWS);
            // A worker counts a record's rows just after its transaction commits: the ledger may say "ended" first.
            FreePorts.await(() -> PrometheusScrape.of(ports.get("copy")).sum("tablescan_rows_written_total") == ROWS
                    && PrometheusScrape.of(ports.get("discovery")).sum("tablescan_rows_read_total")
                    + PrometheusScrape.of(ports.get("partition")).sum("tablescan_rows_read_total") == ROWS,
                    Duration.ofSeconds(30), () -> true);

            PrometheusScrape copy = PrometheusScrape.of(ports.get("copy"));
            PrometheusScrape partition = PrometheusScrape.of(ports.get("partition"));
            PrometheusScrape discovery = PrometheusScrape.of(ports.get("discovery"));
            assertThat(writtenWhileRunning.subSet(0.0, false, (double) ROWS, false))
                    .as("rows written, scraped while the copy ran").hasSizeGreaterThanOrEqualTo(2);
            assertThat(copy.sum("tablescan_rows_written_total")).isEqualTo(ROWS);
            assertThat(discovery.sum("tablescan_rows_read_total") + partition.sum("tablescan_rows_read_total"))
                    .isEqualTo(ROWS);
            assertThat(copy.sum("tablescan_items_total", "kind=\"entity_batch\"", "outcome=\"done\""))
                    .isEqualTo(totals.status().getDone().getEntityBatches());
            assertThat(copy.sum("tablescan_table_requests_seconds_count", "operation=\"upsert\"", "outcome=\"ok\""))
                    .isGreaterThan(0);
            assertThat(copy.has("tablescan_table_requests_seconds_bucket")).as("latency histogram").isTrue();
            double retries = copy.sum("tablescan_sink_retries_total") + partition.sum("tablescan_table_retries_total")
                    + discovery.sum("tablescan_table_retries_total");
            double throttles = copy.sum("tablescan_table_throttles_total")
                    + partition.sum("tablescan_table_throttles_total") + discovery.sum("tablescan_table_throttles_total");
            assertThat(retries).as("retries in metrics (aborted work too)").isGreaterThan(0).isGreaterThanOrEqualTo(totals.retries());
            assertThat(throttles).as("throttles in metrics").isGreaterThan(0).isGreaterThanOrEqualTo(totals.throttles());
            assertThat(copy.has("kafka_consumer_fetch_manager_records_lag_max")).as("consumer lag").isTrue();
            assertThat(copy.has("tablescan_items_in_flight")).isTrue();
            assertThat(copy.sum("tablescan_dead_letters_total")).isZero();
            assertThat(PrometheusScrape.of(ports.get("ledger")).has("jvm_memory_used_bytes")).isTrue();
            for (String metric : dashboardMetrics()) {
                assertThat(copy.has(metric) || partition.has(metric) || discovery.has(metric))
                        .as("the Grafana dashboard's " + metric + " is served").isTrue();
            }
            assertThat(Files.readAllLines(children.log("copy").toPath())).as("JSON log lines")
                    .anyMatch(line -> line.startsWith("{") && line.contains("\"level\":\"INFO\"")
                            && line.contains("copy worker consuming " + io.tablescan.runtime.Namespace.DEFAULT.entityBatches()));
            System.out.printf("entrypoint: %d rows, %.0f retries, %.0f throttles in metrics, %d scrapes while running%n",
                    ROWS, retries, throttles, writtenWhileRunning.size());
        }
    }

    /**
     * A local job in the image: its user (no home folder: {@code useradd --system} makes none) runs {@code count}
     * through the ENTRYPOINT with the image's ENV, from {@code /} as there is no WORKDIR. The folder the image names
     * in TABLESCAN_STATE_DIR is mapped to one of this test's, made and given to the image's user as the Dockerfile
     * does; when this test runs as root, the command runs as that user's uid (setpriv), as in the container.
     */
    @Test
    void aLocalJobRunsAsTheImagesUserWhoHasNoHomeFolder(@TempDir Path dir) throws Exception {
        Image image = Image.read(Path.of("..", "Dockerfile"));
        String stateDir = image.env().get("TABLESCAN_STATE_DIR");
        assertThat(stateDir).as("the image's TABLESCAN_STATE_DIR").isNotBlank();
        String volume = image.ownedFolders().stream().filter(stateDir::startsWith).findFirst().orElse(null);
        assertThat(volume).as("a folder the Dockerfile gives to user " + image.user() + " holds " + stateDir).isNotNull();
        Path mapped = Files.createDirectories(dir.resolve("image").resolve(volume.substring(1)));
        boolean root = "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv"));
        if (root) {
            Files.setAttribute(dir, "unix:uid", Integer.parseInt(image.user()));
            Files.setAttribute(mapped, "unix:uid", Integer.parseInt(image.user()));
            for (Path p = mapped.getParent(); !p.equals(dir); p = p.getParent()) {
                Files.setAttribute(p, "unix:uid", Integer.parseInt(image.user()));
            }
        }
        SampleTable.write(LocalServices.store(), "imagecount", SampleTable.rows(120), 4);

        Map<String, String> env = new HashMap<>(image.env());
        env.put("TABLESCAN_STATE_DIR", mapped + stateDir.substring(volume.length()));
        // the user's home as useradd --system leaves it: named, never made (and /home is not theirs to write)
        env.put("JAVA_TOOL_OPTIONS", env.get("JAVA_TOOL_OPTIONS") + " -Duser.home=/home/tablescan");
        List<String> command = new ArrayList<>(image.command(List.of("count", "--source-connection-string",
                LocalServices.azurite().connectionString(), "--source-table", "imagecount")));
        if (root) {
            command.addAll(0, List.of("/usr/bin/setpriv", "--reuid=" + image.user(), "--regid=" + image.user(),
                    "--clear-groups"));
        }
        ProcessBuilder builder = new ProcessBuilder(command).directory(new java.io.File("/")).redirectErrorStream(true)
                .redirectOutput(dir.resolve("count.log").toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().putAll(env);
        Process count = builder.start();
        assertThat(count.waitFor(3, TimeUnit.MINUTES)).as("count ends").isTrue();
        String out = Files.readString(dir.resolve("count.log"));
        System.out.print(out);
        assertThat(count.exitValue()).as(out).isZero();
        assertThat(out).contains("120 rows").doesNotContain("cannot use the state folder").doesNotContain("warning:");
        try (var left = Files.list(mapped)) { // the job's state went when it ended
            assertThat(left.flatMap(jobs -> { try { return Files.list(jobs); } catch (IOException e) {
                throw new java.io.UncheckedIOException(e); } }).toList()).isEmpty();
        }
    }

    /** Every metric the Grafana dashboard's queries name. */
    private static List<String> dashboardMetrics() throws IOException {
        var dashboard = new ObjectMapper().readTree(Path.of("..", "deploy", "grafana", "tablescan.json").toFile());
        List<String> metrics = new ArrayList<>();
        Pattern name = Pattern.compile("\\b((?:tablescan|kafka|jvm)_[a-z_]+)\\{");
        dashboard.findValues("expr").forEach(expr -> {
            Matcher m = name.matcher(expr.asText());
            while (m.find()) {
                metrics.add(m.group(1));
            }
        });
        assertThat(metrics).hasSizeGreaterThanOrEqualTo(10);
        return metrics;
    }

    /** The compose workers' health check command, without its CMD marker. */
    @SuppressWarnings("unchecked")
    private static List<String> healthcheck() throws IOException {
        Map<String, Object> worker = (Map<String, Object>) ComposeFileTest.services().get("copy-worker");
        List<String> test = (List<String>) ((Map<String, Object>) worker.get("healthcheck")).get("test");
        assertThat(test.get(0)).isEqualTo("CMD");
        return test.subList(1, test.size());
    }

    /**
     * Waits until the process answers ready over HTTP (cheap to poll), then runs the health check command, a JVM of
     * its own, until it passes: once or twice, not once for every poll while the process starts.
     */
    /** A role's environment and command. */
    private record Start(Map<String, String> env, List<String> command) {}

    /** Starts {@code role} with its metrics and health on a free port none of {@code taken} has; returns it. */
    private static int start(ChildProcesses children, String role, Start start, java.util.Collection<Integer> taken)
            throws Exception {
        int port = FreePorts.find();
        while (taken.contains(port)) { // free, but given to a child that has not bound it yet
            port = FreePorts.find();
        }
        start.env().put("TABLESCAN_METRICS_PORT", Integer.toString(port));
        children.start(role, start.env(), start.command());
        return port;
    }

    /**
     * The port {@code role} serves, as its own log says: started again on another port if its own was taken before
     * it could bind it (other processes pick ports too; a health check would then ask a stranger).
     */
    private static int serving(ChildProcesses children, String role, Start start, Map<String, Integer> ports)
            throws Exception {
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = ports.get(role);
            String serving = "metrics and health on port " + port;
            String taken = "cannot listen on 127.0.0.1:" + port;
            assertThat(FreePorts.await(() -> children.output(role).contains(serving)
                    || children.output(role).contains(taken), Duration.ofMinutes(2), () -> true))
                    .as(children.output(role)).isTrue();
            if (children.output(role).contains(serving)) {
                return port;
            }
            ports.put(role, start(children, role, start, ports.values()));
        }
        throw new AssertionError(role + ": no free port in three tries");
    }

    private static boolean awaitHealthy(List<String> healthcheck, Image image, int port, Duration timeout) {
        FreePorts.await(() -> PrometheusScrape.status(port, "/health/ready") == 200, timeout, () -> true);
        return FreePorts.await(() -> {
            ProcessBuilder builder = new ProcessBuilder(image.local(healthcheck)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(image.env());
            builder.environment().put("TABLESCAN_METRICS_PORT", Integer.toString(port));
            try {
                Process check = builder.start();
                return check.waitFor(30, TimeUnit.SECONDS) && check.exitValue() == 0;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }, timeout, () -> true);
    }

    /**
     * What the Dockerfile's final stage runs: its ENTRYPOINT, ENV and USER, and the folders its RUN lines give to
     * that user ({@code chown UID PATH...}), with the image's paths mapped to this build.
     */
    record Image(List<String> entrypoint, Map<String, String> env, String user, List<String> ownedFolders) {
        private static final Pattern ENV = Pattern.compile("^ENV\\s+([A-Z_]+)=\"?(.*?)\"?$");
        private static final Pattern CHOWN = Pattern.compile("chown\\s+(\\d+)((?:\\s+/[^\\s&;\\\\]+)+)");

        static Image read(Path dockerfile) throws IOException {
            List<String> entrypoint = null;
            Map<String, String> env = new HashMap<>();
            String user = null;
            String text = Files.readString(dockerfile);
            String stage = text.substring(text.lastIndexOf("\nFROM ")); // the final stage's lines only
            for (String line : stage.replace("\\\n", " ").lines().toList()) {
                Matcher m = ENV.matcher(line.trim());
                if (m.matches()) {
                    env.put(m.group(1), m.group(2));
                } else if (line.startsWith("ENTRYPOINT ")) {
                    entrypoint = List.of(new ObjectMapper().readValue(line.substring(11), String[].class));
                } else if (line.startsWith("USER ")) {
                    user = line.substring(5).trim();
                }
            }
            assertThat(entrypoint).as("ENTRYPOINT").isNotNull();
            List<String> owned = new ArrayList<>();
            Matcher chown = CHOWN.matcher(stage.replace("\\\n", " "));
            while (chown.find()) {
                if (chown.group(1).equals(user)) {
                    owned.addAll(List.of(chown.group(2).trim().split("\\s+")));
                }
            }
            return new Image(entrypoint, env, user, owned);
        }

        List<String> command(List<String> args) {
            List<String> command = new ArrayList<>(entrypoint);
            command.addAll(args);
            return local(command);
        }

        /** The image's java and jar are this JVM's java and the build's jar. */
        List<String> local(List<String> command) {
            String java = ProcessHandle.current().info().command().orElse("java");
            String jar = Path.of("..", "cli", "target", "tablescan.jar").toAbsolutePath().toString();
            return command.stream().map(a -> a.equals("java") ? java : a.equals(IMAGE_JAR) ? jar : a).toList();
        }
    }
}
