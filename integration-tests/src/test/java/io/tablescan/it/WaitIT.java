package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.control.ScanCanceller;
import io.tablescan.control.ScanStarter;
import io.tablescan.ledger.ScanLedger;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * Waiting on a cluster where nothing can make the scan end: no ledger, then no workers. The wait says what to
 * start, its clock keeps running, and --timeout ends it with one line and exit 1. Each scan in a namespace of its own
 * on the shared broker, so no ledger or worker of another test can take part; the two waits run at the same time
 * (they only wait), each command a process of its own.
 */
class WaitIT {
    @Test
    void aWaitWithNoLedgerOrNoWorkersSaysWhatToStartAndGivesUpAtItsTimeout() throws Exception {
        String bootstrap = LocalServices.broker().bootstrapServers();
        // A ledger records this scan, but no worker runs: nothing finishes.
        KafkaSettings noWorkers = KafkaSettings.of(bootstrap).withNamespace(Namespace.of("wait-no-workers"));
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("src", "waitsource")).to(new TableRef("dst", "waitcopy")).build();
        String scanId = spec.getScanId();
        Path dir = Files.createTempDirectory("tablescan-wait-");
        try (Admin admin = noWorkers.newAdmin()) { // the ledger and the scan's start need the namespace's topics
            Topics.ensure(admin, noWorkers.namespace(), 1, Optional.empty(), Duration.ofSeconds(60));
        }
        try (ScanLedger ledger = ScanLedger.start(noWorkers)) {
            ScanStarter.start(noWorkers, spec);
            ScanAwait.until(noWorkers, scanId, t -> t.started(), Duration.ofMinutes(1));
            // Both commands as processes, at once: they read TABLESCAN_NAMESPACE from their environment.
            long start = System.nanoTime();
            Process unrecorded = command(dir, "no-ledger", "wait-no-ledger", "start", "--kafka", bootstrap,
                    "--source-account", "src", "--source-table", "waitsource", "--dest-account", "dst",
                    "--dest-table", "waitcopy", "--wait", "--timeout", "25s");
            Process watch = command(dir, "no-workers", "wait-no-workers", "status", scanId, "--kafka", bootstrap,
                    "--watch", "--timeout", "35s");
            assertThat(unrecorded.waitFor(2, TimeUnit.MINUTES)).as("start --wait ends").isTrue();
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(watch.waitFor(2, TimeUnit.MINUTES)).as("status --watch ends").isTrue();

            Cli.Run started = ran(dir, "no-ledger", unrecorded);
            Cli.assertOneLine(started, UserError.FAILED, "gave up waiting after 25s: scan ");
            assertThat(started.err()).contains("is not recorded by any ledger; it goes on without this command");
            assertThat(seconds).as("seconds, the JVM's start included").isGreaterThanOrEqualTo(25.0);
            // by its own clock (from the command's start, not the JVM's: that can take long on a loaded machine)
            assertThat(clocks(started.out()).stream().mapToInt(WaitIT::seconds).max().orElseThrow())
                    .as("the last clock reading, seconds").isBetween(20, 30);
            Matcher line = Pattern.compile("(?m)^(scan-\\S+)$").matcher(started.out()); // the scan id's own line
            assertThat(line.find()).as(started.out()).isTrue();
            String other = line.group(1);
            // Said at the first progress report (every 5 s) after 20 s: on a slow machine, 21 s or more.
            assertThat(started.out())
                    .containsPattern("no ledger has recorded scan " + other + " in 2\\d s: is one running\\?")
                    .contains("`./tablescan ledger --kafka " + bootstrap + "`");
            assertThat(clocks(started.out())).as("the clock runs while it waits").hasSizeGreaterThanOrEqualTo(4)
                    .anyMatch(clock -> clock.startsWith("0:0"));

            Cli.Run watched = ran(dir, "no-workers", watch);
            Cli.assertOneLine(watched, UserError.FAILED, "gave up waiting after 35s: scan " + scanId
                    + " is still running (1 open item)");
            assertThat(watched.out()).containsPattern("no item of scan " + scanId + " has finished in 3\\d s: are "
                    + "workers running\\?").contains("KAFKA_BOOTSTRAP_SERVERS=" + bootstrap + " ./tablescan worker discovery");
            assertThat(clocks(watched.out())).as("the scan's clock runs with no event coming").hasSizeGreaterThan(3);
        }
        ScanCanceller.cancel(noWorkers, scanId);

        Cli.assertOneLine(Cli.run("retry", scanId, "--kafka", bootstrap, "--timeout", "10s"), UserError.USAGE,
                "--timeout needs --wait");
        Cli.assertOneLine(Cli.run("status", scanId, "--kafka", bootstrap, "--watch", "--timeout", "10"),
                UserError.USAGE, "invalid value for --timeout (a duration: a number and a unit, s, m or h, as in 90s");
    }

    /** A tablescan command as a process in {@code namespace}, its stdout and stderr in files of their own. */
    private static Process command(Path dir, String label, String namespace, String... args) throws Exception {
        List<String> command = ChildProcesses.java();
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(dir.resolve(label + ".out").toFile())
                .redirectError(dir.resolve(label + ".err").toFile());
        builder.environment().put("TABLESCAN_NAMESPACE", namespace);
        return builder.start();
    }

    private static Cli.Run ran(Path dir, String label, Process process) throws Exception {
        return new Cli.Run(process.exitValue(), Files.readString(dir.resolve(label + ".out")),
                Files.readString(dir.resolve(label + ".err")));
    }

    private static int seconds(String clock) {
        String[] parts = clock.split(":");
        return Integer.parseInt(parts[0]) * 60 + Integer.parseInt(parts[1]);
    }

    /** The distinct clock readings (M:SS at the end of a progress line) in the output. */
    static java.util.Set<String> clocks(String out) {
        Matcher m = Pattern.compile("(?m)(\\d+:\\d\\d)$").matcher(out);
        return m.results().map(r -> r.group(1)).collect(Collectors.toCollection(java.util.TreeSet::new));
    }
}
