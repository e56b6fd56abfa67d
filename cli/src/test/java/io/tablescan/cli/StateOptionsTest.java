package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.runner.JobState;
import io.tablescan.runner.JobStates;
import io.tablescan.runner.RunSettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A local job's key and state folder: what makes two command lines the same job, and the lock. */
class StateOptionsTest {
    private static final String KEY_A = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
            + "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"
            + "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1";

    private static String key(String... args) {
        CommandLine cli = TablescanCommand.commandLine();
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        Object command = parsed.subcommand().commandSpec().userObject();
        return ((CopyCommand) command).state.key();
    }

    @Test
    void theSameJobHasOneKeyWhateverTheOrderRatesOrStateOptions() {
        String key = key("copy", "--source-account", "prod", "--source-table", "A", "--dest-table", "B");
        assertThat(key).matches("[0-9a-f]{16}");
        assertThat(key("copy", "--dest-table", "B", "--source-table", "A", "--source-account", "prod", "--max-rate",
                "100", "--restart", "--state-dir", "/tmp/x")).isEqualTo(key);
        assertThat(key("copy", "--source-account", "prod", "--source-table", "A", "--dest-table", "C")).isNotEqualTo(key);
        assertThat(key("copy", "--source-account", "prod", "--source-table", "A", "--dest-table", "B", "--filter",
                "Major lt 5")).isNotEqualTo(key);
    }

    @Test
    void aConnectionStringCountsByItsAccountAndEndpointNotItsKey() {
        String rotated = KEY_A.replace("Eby8", "Xby8");
        String one = key("copy", "--source-connection-string", KEY_A, "--source-table", "A", "--dest-table", "B");
        assertThat(key("copy", "--source-connection-string", rotated, "--source-table", "A", "--dest-table", "B"))
                .isEqualTo(one);
        assertThat(one).doesNotContain("Eby8");
    }

    @Test
    void aJobInterruptedBeforeItsScanWasSeededIsNotToldToResume(@TempDir Path root) {
        // (once seeded, the hint names the kept state: InterruptIT stops a copy mid-scan and reads it)
        JobState state = JobState.open(root, "00bb", "copy", "A -> B", false);
        assertThat(StateOptions.resumeHint(state)).startsWith("interrupted before the job's scan started: run the "
                + "same command again to start it").doesNotContain("resume");
        state.close();
    }

    @Test
    void aRunningJobIsRefusedAndAStateWithNoScanGoesWhenClosed(@TempDir Path root) {
        JobState first = JobState.open(root, "00aa", "copy", "A -> B", false);
        assertThatThrownBy(() -> JobState.open(root, "00aa", "copy", "A -> B", false))
                .isInstanceOf(RunSettingsException.class).hasMessageContaining("this job is running already");
        assertThat(JobStates.list(root)).singleElement().satisfies(job -> {
            assertThat(job.key()).isEqualTo("00aa");
            assertThat(job.running()).isTrue();
        });
        assertThatThrownBy(() -> JobStates.remove(root, "00aa")).isInstanceOf(RunSettingsException.class);
        first.put("runId", "1234");
        first.close(); // nothing seeded: nothing to resume
        assertThat(Files.exists(root.resolve("00aa"))).isFalse();
        assertThat(JobStates.list(root)).isEmpty();
        assertThat(JobStates.remove(root, "00aa")).isFalse();
    }
}
