package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (SIGINT) sent to `restore` in a child JVM mid-way: exit 130, as for copy, with one line of the rows done when
 * stopped and the tables done, as a local job says, and a rerun of the restore completes it. (A backup's Ctrl-C and
 * its rerun: {@code LocalResumeIT}.)
 */
class BackupInterruptIT {
    @Test
    void ctrlCOfARestoreExits130AndItsRerunCompletesIt(@TempDir Path sets) throws Exception {
        SampleTable.write(LocalServices.store(), "bintsource", SampleTable.rows(6_000), 8);
        String cs = LocalServices.azurite().connectionString();
        Cli.Run full = Cli.run("backup", "--source-connection-string", cs, "--tables", "bintsource", "--to",
                sets.toString());
        assertThat(full.exitCode()).as(full.out() + full.err()).isZero();
        try (ChildProcesses children = new ChildProcesses("backup-interrupt")) {
            Path tmp = InterruptIT.temporaryFolder("backup-interrupt");
            Files.deleteIfExists(children.log("restore").toPath()); // logs are appended to: drop an earlier run's
            Process restore = children.start("restore", InterruptIT.env(tmp), "restore", "--from", sets.toString(),
                    "--latest", "--dest-connection-string", cs, "--table-prefix", "bint");
            interruptOnceItPrints(children, "restore", restore, " rows as at the set; checked ");
            assertThat(children.output("restore")).contains("restore NOT complete").doesNotContain("\tat ")
                    .containsPattern("tablescan: interrupted: [\\d,]+ row writes? done when stopped, 0 tables of 1 "
                            + "restored; run the same restore again with --into-existing")
                    .doesNotContain("bintsource: FAILED: bintsource:");
        }
        Cli.Run again = Cli.run("restore", "--from", sets.toString(), "--latest", "--dest-connection-string", cs,
                "--table-prefix", "bint", "--into-existing");
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
    }

    private static void interruptOnceItPrints(ChildProcesses children, String label, Process child, String line)
            throws Exception {
        assertThat(FreePorts.await(() -> children.output(label).contains(line), Duration.ofMinutes(3),
                child::isAlive)).as(children.output(label)).isTrue();
        new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start().waitFor();
        assertThat(child.waitFor(90, TimeUnit.SECONDS)).as(children.output(label)).isTrue();
        assertThat(child.exitValue()).as(children.output(label)).isEqualTo(UserError.INTERRUPTED);
    }
}
