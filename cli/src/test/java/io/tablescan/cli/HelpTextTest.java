package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --help tells every option's meaning and default; -V works on every command; test is listed. */
class HelpTextTest {
    @Test
    void everyOptionAndParameterHasADescriptionAndItsDefault() {
        List<String> missing = new ArrayList<>();
        CommandLine root = TablescanCommand.commandLine();
        List<CommandLine> commands = new ArrayList<>(List.of(root));
        commands.addAll(root.getSubcommands().values());
        for (CommandLine command : commands) {
            missing.addAll(Cli.undocumented(command));
        }
        assertThat(missing).isEmpty();
    }

    /** A lone % in a description makes picocli print its text raw with a warning (the help of every job shows it). */
    @Test
    void everyCommandsHelpFormatsWithoutAWarning() {
        for (String command : TablescanCommand.commandLine().getSubcommands().keySet()) {
            Cli.Run run = Cli.run(command, "--help");
            assertThat(run.exitCode()).as(command).isZero();
            assertThat(run.out() + run.err()).as(command + " --help").doesNotContain("picocli WARN")
                    .doesNotContain("Could not format");
        }
    }

    @Test
    void theTopLevelHelpListsTheLaunchersTestCommand() {
        Cli.Run run = Cli.run("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).containsPattern("(?m)^  test +Runs the test suite")
                .containsPattern("(?m)^  bench +Copies a package-like table"); // the launcher runs it from the bench jar
    }

    /** A duration in the help rots as the suite grows (it said 13 minutes when it took 40): the README says it. */
    @Test
    void theTestCommandsHelpGivesNoDurationButPointsToTheReadme() {
        Cli.Run run = Cli.run("test", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("see the README").doesNotContainPattern("\\d+ minutes");
    }

    @Test
    void everyCommandPrintsTheVersion() {
        for (String command : TablescanCommand.commandLine().getSubcommands().keySet()) {
            Cli.Run run = Cli.run(command, "-V");
            assertThat(run.exitCode()).as(command).isZero();
            assertThat(run.out().strip()).as(command + " -V").matches("tablescan \\d+\\.\\d+\\.\\d+");
        }
        assertThat(Cli.run("-V").out().strip()).matches("tablescan \\d+\\.\\d+\\.\\d+");
        assertThat(Cli.run("--version").out().strip()).matches("tablescan \\d+\\.\\d+\\.\\d+");
    }

    /** A command runs on a tree of itself alone (a shorter start): it must read as it does in the whole tree. */
    @Test
    void aCommandAloneReadsAsInTheWholeTree() {
        CommandLine whole = TablescanCommand.commandLine();
        for (var entry : whole.getSubcommands().entrySet()) {
            CommandLine alone = TablescanCommand.commandLine(java.util.Map.of(), new String[] {entry.getKey(), "--help"});
            assertThat(alone.getSubcommands().keySet()).as(entry.getKey()).containsExactly(entry.getKey());
            assertThat(alone.getSubcommands().get(entry.getKey()).getUsageMessage())
                    .isEqualTo(entry.getValue().getUsageMessage());
        }
        assertThat(TablescanCommand.commandLine(java.util.Map.of(), new String[] {"copyy"}).getSubcommands())
                .as("a mistyped command: every command, for the suggestion").hasSameSizeAs(whole.getSubcommands());
    }
}
