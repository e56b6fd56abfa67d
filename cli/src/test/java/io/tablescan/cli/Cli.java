package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /**
     * A broker that the table-job commands of {@link #run} use instead of an embedded one of their own: each runs as
     * {@code --kafka bootstrap --in-process} with {@code TABLESCAN_NAMESPACE=namespace}, so in topics and groups of
     * its own under that namespace, deleted when it ends. Starting and stopping a broker per command is most of a
     * short command's time.
     */
    public record OnKafka(String bootstrap, String namespace) {}

    /** The commands that run a table job in this process and take --in-process with --kafka. */
    private static final Set<String> IN_PROCESS = Set.of("copy", "count", "verify", "export", "import", "delete");
    /** The commands that run their scans in this process, on --kafka when given (they have no --in-process). */
    private static final Set<String> ALWAYS_HERE = Set.of("backup", "restore");
    /** Options that are about the local default itself (its job state, help): such a command is left as written. */
    private static final Set<String> LOCAL_ONLY = Set.of("--kafka", "--state-dir", "--restart", "--help", "-h", "-V");

    private static volatile OnKafka onKafka;

    private Cli() {}

    /** From now on, table jobs run on {@code where} (see {@link OnKafka}); null: on the local default again. */
    public static void onKafka(OnKafka where) {
        onKafka = where;
    }

    /** One command, as {@code ./tablescan args...}. */
    public static Run run(String... args) {
        OnKafka where = onKafka;
        if (where != null) {
            return run(System.getenv(), args);
        }
        return capture(() -> TablescanCommand.execute(args));
    }

    /** One command with these environment variables (only those) for the settings the commands read through it. */
    public static Run run(Map<String, String> environment, String... args) {
        OnKafka where = onKafka;
        String[] line = where == null ? args : onKafka(where, args);
        Map<String, String> env = line == args ? environment : withNamespace(environment, where.namespace());
        return capture(() -> TablescanCommand.execute(TablescanCommand.commandLine(env, line), line));
    }

    /** {@code args} with --kafka (and --in-process) when they run a table job on the local default; else the same. */
    static String[] onKafka(OnKafka where, String[] args) {
        if (args.length == 0 || Arrays.stream(args).anyMatch(a -> LOCAL_ONLY.contains(a.split("=", 2)[0]))) {
            return args;
        }
        List<String> line = new ArrayList<>(Arrays.asList(args));
        if (IN_PROCESS.contains(args[0])) {
            line.addAll(List.of("--kafka", where.bootstrap(), "--in-process"));
        } else if (ALWAYS_HERE.contains(args[0])) {
            line.addAll(List.of("--kafka", where.bootstrap()));
        } else {
            return args;
        }
        return line.toArray(String[]::new);
    }

    private static Map<String, String> withNamespace(Map<String, String> environment, String namespace) {
        Map<String, String> env = new HashMap<>(environment);
        env.putIfAbsent("TABLESCAN_NAMESPACE", namespace);
        return env;
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
