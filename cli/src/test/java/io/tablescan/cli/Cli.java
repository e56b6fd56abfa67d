package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/** Runs ./tablescan's commands in this JVM and captures what they print: the command line as a user meets it. */
public final class Cli {
    public record Run(int exitCode, String out, String err) {
        /**
         * The lines the command printed on stdout, without the test JVM's log lines (logback-test.xml's
         * "HH:mm:ss.SSS LEVEL [thread]" lines), which land in the same stream: an in-process broker can log a
         * warning in the middle of a command's output.
         */
        public List<String> printed() {
            return out.lines().filter(line -> !LOG_LINE.matcher(line).lookingAt()).toList();
        }
    }

    private static final Pattern LOG_LINE = Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (TRACE|DEBUG|INFO|WARN|ERROR) +\\[");

    private Cli() {}

    /** One command, as {@code ./tablescan args...}. */
    public static Run run(String... args) {
        return capture(() -> TablescanCommand.execute(args));
    }

    /** One command with these environment variables (only those) for the settings the commands read through it. */
    public static Run run(Map<String, String> environment, String... args) {
        return capture(() -> TablescanCommand.execute(TablescanCommand.commandLine(environment, args), args));
    }

    /** What a command prints and its exit code; one at a time, since it swaps the process's output streams. */
    public static synchronized Run capture(IntSupplier command) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = command.getAsInt();
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /**
     * The options and parameters of {@code command} (not its subcommands) whose help has no description, or
     * does not show their default, as "command option: what is missing".
     */
    public static List<String> undocumented(CommandLine command) {
        List<String> missing = new ArrayList<>();
        var spec = command.getCommandSpec();
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
        return missing;
    }

    /** A user's mistake: this exit code, one "tablescan:" line holding {@code message}, no stack trace. */
    public static void assertOneLine(Run run, int exitCode, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(exitCode);
        assertThat(run.err()).contains(message).doesNotContain("\tat ").doesNotContain("Exception in thread");
        assertThat(run.err().lines().filter(l -> l.startsWith("tablescan:")).count()).isEqualTo(1);
    }
}
