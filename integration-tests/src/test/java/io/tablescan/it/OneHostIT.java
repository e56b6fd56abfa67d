package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The README's "Run it at scale" on one machine: the three workers and a ledger started as it shows them,
 * without TABLESCAN_METRICS_PORT. All must keep running, each serving health on a port of its own that it logs.
 */
class OneHostIT {
    private static final Pattern PORT = Pattern.compile("metrics and health on port (\\d+)");

    @Test
    void workersStartedAsTheReadmeShowsThemAllRunOnOneMachine() throws Exception {
        String bootstrap = LocalServices.broker().bootstrapServers();
        // As the README: no TABLESCAN_METRICS_PORT (loopback only, to expose nothing beyond this machine). The
        // children inherit this JVM's environment, and ChildProcesses' raw start adds no port of its own.
        Assumptions.assumeTrue(System.getenv("TABLESCAN_METRICS_PORT") == null, "TABLESCAN_METRICS_PORT is set here");
        // A namespace of their own keeps them out of other tests' groups; it has nothing to do with ports.
        Map<String, String> env = Map.of("KAFKA_BOOTSTRAP_SERVERS", bootstrap, "TABLESCAN_METRICS_HOST", "127.0.0.1",
                "TABLESCAN_NAMESPACE", "onehost-it");
        List<String> roles = List.of("discovery", "partition", "copy", "ledger");
        try (ChildProcesses children = new ChildProcesses("one-host-" + UUID.randomUUID())) {
            Map<String, Process> processes = new HashMap<>();
            for (String role : roles) {
                processes.put(role, children.start(role, env, command(role)));
            }
            Map<String, Integer> ports = new HashMap<>();
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (ports.size() < roles.size() && System.nanoTime() < deadline) {
                for (String role : roles) {
                    assertThat(processes.get(role).isAlive()).as(role + " runs: " + children.output(role)).isTrue();
                    Matcher port = PORT.matcher(children.output(role));
                    if (port.find()) {
                        ports.put(role, Integer.parseInt(port.group(1)));
                    }
                }
                Thread.sleep(200); // polling the logs for a condition with a deadline
            }
            assertThat(ports).as("every process logged its metrics port").hasSize(roles.size());
            assertThat(new java.util.HashSet<>(ports.values())).as("one port each").hasSize(roles.size());
            for (String role : roles) {
                assertThat(PrometheusScrape.status(ports.get(role), "/health/live")).as(role).isEqualTo(200);
                assertThat(Cli.run("health", "--live", "--port", Integer.toString(ports.get(role))).exitCode())
                        .as("tablescan health finds " + role).isZero();
                assertThat(processes.get(role).isAlive()).as(role + " still runs").isTrue();
            }
        }
    }

    private static List<String> command(String role) {
        List<String> command = ChildProcesses.java();
        command.addAll(role.equals("ledger") ? List.of("ledger") : List.of("worker", role));
        return command;
    }
}
