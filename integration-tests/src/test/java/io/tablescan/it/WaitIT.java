package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.UserError;
import io.tablescan.control.ScanCanceller;
import io.tablescan.ledger.ScanLedger;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaSettings;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Waiting on a cluster where nothing can make the scan end: no ledger, then no workers. The wait says what to
 * start, its clock keeps running, and --timeout ends it with one line and exit 1. A broker of its own, so no
 * ledger or worker of another test can take part.
 */
class WaitIT {
    @Test
    void aWaitWithNoLedgerOrNoWorkersSaysWhatToStartAndGivesUpAtItsTimeout() {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            long start = System.nanoTime();
            Cli.Run started = Cli.run("start", "--kafka", bootstrap, "--source-account", "src", "--source-table",
                    "waitsource", "--dest-account", "dst", "--dest-table", "waitcopy", "--wait", "--timeout", "25s");
            double seconds = (System.nanoTime() - start) / 1e9;

            Cli.assertOneLine(started, UserError.FAILED, "gave up waiting after 25s: scan ");
            assertThat(started.err()).contains("is not recorded by any ledger; it goes on without this command");
            assertThat(seconds).isBetween(25.0, 60.0);
            String scanId = started.printed().getFirst();
            // Said at the first progress report (every 5 s) after 20 s: on a slow machine, 21 s or more.
            assertThat(started.out())
                    .containsPattern("no ledger has recorded scan " + scanId + " in 2\\d s: is one running\\?")
                    .contains("`./tablescan ledger --kafka " + bootstrap + "`");
            assertThat(clocks(started.out())).as("the clock runs while it waits").hasSizeGreaterThanOrEqualTo(4)
                    .anyMatch(clock -> clock.startsWith("0:0"));

            // A ledger records the scan, but no worker runs: nothing finishes.
            try (ScanLedger ledger = ScanLedger.start(KafkaSettings.of(bootstrap))) {
                ScanAwait.until(KafkaSettings.of(bootstrap), scanId, t -> t.started(), Duration.ofMinutes(1));
                Cli.Run watched = Cli.run("status", scanId, "--kafka", bootstrap, "--watch", "--timeout", "35s");

                Cli.assertOneLine(watched, UserError.FAILED, "gave up waiting after 35s: scan " + scanId
                        + " is still running (1 open item)");
                assertThat(watched.out()).containsPattern("no item of scan " + scanId + " has finished in 3\\d s: are "
                        + "workers running\\?").contains("KAFKA_BOOTSTRAP_SERVERS=" + bootstrap + " ./tablescan worker discovery");
                assertThat(clocks(watched.out())).as("the scan's clock runs with no event coming").hasSizeGreaterThan(3);
            }
            ScanCanceller.cancel(KafkaSettings.of(bootstrap), scanId);

            Cli.assertOneLine(Cli.run("retry", scanId, "--kafka", bootstrap, "--timeout", "10s"), UserError.USAGE,
                    "--timeout needs --wait");
            Cli.assertOneLine(Cli.run("status", scanId, "--kafka", bootstrap, "--watch", "--timeout", "10"),
                    UserError.USAGE, "invalid value for --timeout (a duration: a number and a unit, s, m or h, as in 90s");
        }
    }

    /** The distinct clock readings (M:SS at the end of a progress line) in the output. */
    static java.util.Set<String> clocks(String out) {
        Matcher m = Pattern.compile("(?m)(\\d+:\\d\\d)$").matcher(out);
        return m.results().map(r -> r.group(1)).collect(Collectors.toCollection(java.util.TreeSet::new));
    }
}
