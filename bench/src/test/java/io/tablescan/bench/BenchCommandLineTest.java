package io.tablescan.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
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

        List<String> missing = new ArrayList<>();
        var spec = bench.getCommandSpec();
        List<ArgSpec> args = new ArrayList<>(spec.options());
        args.addAll(spec.positionalParameters());
        for (ArgSpec arg : args) {
            String name = spec.qualifiedName() + " " + (arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel());
            String description = String.join(" ", arg.renderedDescription());
            if (description.isBlank()) {
                missing.add(name + ": no description");
            }
            if (arg.defaultValue() != null && !description.contains("default " + arg.defaultValue())) {
                missing.add(name + ": default " + arg.defaultValue() + " not shown");
            }
        }
        assertThat(spec.options()).extracting(OptionSpec::longestName).contains("--scenario", "--rows", "--runs",
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
