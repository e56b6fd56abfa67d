package io.tablescan.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The bench jar's tree: the real bench in the placeholder's place, its help complete, -V like the others. */
class BenchCommandLineTest {
    @Test
    void theRealBenchReplacesThePlaceholderAndEveryOptionHasADescriptionAndItsDefault() {
        CommandLine root = BenchMain.commandLine();
        CommandLine bench = root.getSubcommands().get("bench");
        Object command = bench.getCommand();
        assertThat(command).isInstanceOf(BenchCommand.class);
        assertThat(root.getSubcommands().keySet()).contains("demo", "copy", "worker", "test");

        List<String> missing = io.tablescan.cli.Cli.undocumented(bench);
        assertThat(bench.getCommandSpec().options()).extracting(OptionSpec::longestName).contains("--scenario", "--rows", "--runs",
                "--in-flight", "--read-in-flight", "--json", "--chart");
        assertThat(missing).isEmpty();
    }

    @Test
    void benchPrintsTheToolsVersion() {
        io.tablescan.cli.Cli.Run run = BenchIT.run("bench", "-V");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip()).matches("tablescan \\d+\\.\\d+\\.\\d+");
    }
}
