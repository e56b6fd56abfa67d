package io.tablescan.cli;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.runner.RunSettingsException;
import io.tablescan.runner.WorkerStoppedException;
import io.tablescan.runner.Timeline;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** ./tablescan: the entry point. User mistakes print one line and exit non-zero; never a stack trace. */
@Command(name = "tablescan", mixinStandardHelpOptions = true, version = "tablescan 0.1.0",
        description = "Scans and copies Azure Table Storage tables in parallel through Kafka.")
public final class TablescanCommand {
    /** Every command, in the order the help lists them. */
    private static final List<Class<?>> COMMANDS = List.of(DemoCommand.class, CopyCommand.class, CountCommand.class,
            StartCommand.class, StatusCommand.class, FailuresCommand.class, RetryCommand.class, CancelCommand.class,
            ThrottleCommand.class, WorkerCommand.class, LedgerCommand.class, BrokerCommand.class, SampleCommand.class,
            BenchPlaceholder.class, HealthCommand.class, TestCommand.class, VerifyCommand.class, ExportCommand.class,
            ImportCommand.class, ProfileCommand.class, DeleteCommand.class, JobsCommand.class, BackupCommand.class,
            BackupsCommand.class, RestoreCommand.class);

    public static void main(String[] args) {
        main(args, () -> commandLine(System.getenv(), args));
    }

    static final String BROKER_LOG_LEVEL = "TABLESCAN_BROKER_LOG_LEVEL";

    /**
     * The level of the embedded broker's own loggers (tablescan-loggers.xml): the `broker` command is that broker,
     * and shows its errors; every other command that starts one in-process keeps its expected noise out of the
     * command's output (a fault reaches the command through the clients, which still log). Set explicitly with
     * TABLESCAN_BROKER_LOG_LEVEL, or with TABLESCAN_KAFKA_LOG_LEVEL for the clients and the broker at once.
     */
    static String brokerLogLevel(String[] args, Map<String, String> env) {
        for (String variable : List.of(BROKER_LOG_LEVEL, "TABLESCAN_KAFKA_LOG_LEVEL")) {
            String value = env.get(variable);
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return args.length > 0 && args[0].equals("broker") ? "ERROR" : "OFF";
    }

    /** Runs one command of {@code tree}: the bench jar's main passes this tree with its real bench command. */
    public static void main(String[] args, Supplier<CommandLine> tree) {
        // Workers and the broker are services: they log what they do. The other commands print their own output.
        boolean service = args.length > 0 && Set.of("worker", "ledger", "broker").contains(args[0]);
        String level = System.getenv("TABLESCAN_LOG_LEVEL");
        System.setProperty("TABLESCAN_LOG_LEVEL", level != null ? level : service ? "INFO" : "WARN");
        System.setProperty(BROKER_LOG_LEVEL, brokerLogLevel(args, System.getenv()));
        String format = System.getenv().getOrDefault("TABLESCAN_LOG_FORMAT", "text").trim();
        if (format.equalsIgnoreCase("json")) {
            System.setProperty("logback.configurationFile", "logback-json.xml"); // before the first logger
        } else if (!format.isEmpty() && !format.equalsIgnoreCase("text")) {
            System.err.println("tablescan: TABLESCAN_LOG_FORMAT must be text or json, got '" + format + "'");
            System.exit(UserError.USAGE);
        }
        Timeline.mark("jvm");
        int code = execute(tree.get(), args);
        AzureTableStore.closeAll(); // or the JVM's exit waits 300 ms for their idle threads
        System.exit(code);
    }

    /** The command tree; every subcommand answers -V with the tool's version (picocli leaves theirs empty). */
    public static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    /** The command tree reading its settings from {@code environment}: the process's, or a test's. */
    public static CommandLine commandLine(Map<String, String> environment) {
        return tree(environment, COMMANDS);
    }

    /**
     * The tree that {@code args} run: only the command they name when they name one (picocli reads every option of
     * every command it is given, by reflection: about 0.2 s of a command's start with all of them), else every
     * command, for the help and the suggestion for a mistyped name.
     */
    static CommandLine commandLine(Map<String, String> environment, String[] args) {
        for (Class<?> command : COMMANDS) {
            if (args.length > 0 && command.getAnnotation(Command.class).name().equals(args[0])) {
                return tree(environment, List.of(command));
            }
        }
        return commandLine(environment);
    }

    /** The tool's command with {@code commands}; each answers -V with the tool's version (picocli leaves theirs empty). */
    private static CommandLine tree(Map<String, String> environment, List<Class<?>> commands) {
        CommandLine cli = new CommandLine(new TablescanCommand());
        String[] version = cli.getCommandSpec().version();
        for (Class<?> command : commands) {
            CommandLine sub = new CommandLine(command);
            sub.getCommandSpec().version(version);
            environment(sub, environment);
            cli.addSubcommand(sub);
        }
        return cli;
    }

    /** A command and its own subcommands (backups list, show, prune) read {@code environment}. */
    private static void environment(CommandLine command, Map<String, String> environment) {
        if (command.getCommand() instanceof ReadsEnvironment reads) {
            reads.environment(environment);
        }
        command.getSubcommands().values().forEach(sub -> environment(sub, environment));
    }

    /** A command that reads environment variables through the map it is given (tests cannot set the process's). */
    abstract static class ReadsEnvironment implements java.util.concurrent.Callable<Integer> {
        Map<String, String> env = System.getenv();

        final void environment(Map<String, String> environment) {
            env = environment;
        }
    }

    /** Runs {@code args} as {@code ./tablescan} does, on the command tree they need. */
    public static int execute(String... args) {
        return execute(commandLine(System.getenv(), args), args);
    }

    /** Runs {@code args} against {@code cli}: one line and an exit code for a mistake, never a stack trace. */
    public static int execute(CommandLine cli, String... args) {
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof UserError user) {
                commandLine.getErr().println("tablescan: " + user.getMessage());
                return user.exitCode();
            }
            if (cause instanceof RunSettingsException settings) { // an in-process worker's setting: TABLESCAN_*
                commandLine.getErr().println("tablescan: " + settings.getMessage());
                return UserError.USAGE;
            }
            if (cause instanceof WorkerStoppedException stopped) { // Kafka's reason, never a secret, but masked anyway
                commandLine.getErr().println("tablescan: " + io.tablescan.logging.Redaction.mask(stopped.getMessage()));
                return UserError.FAILED;
            }
            commandLine.getErr().println("tablescan: unexpected error: " + cause);
            if (System.getenv("TABLESCAN_DEBUG") != null) {
                cause.printStackTrace(commandLine.getErr());
            } else {
                commandLine.getErr().println("tablescan: set TABLESCAN_DEBUG=1 for details");
            }
            return 70;
        });
        cli.setParameterExceptionHandler((e, args2) -> {
            e.getCommandLine().getErr().println("tablescan: " + ParameterErrors.describe(e)); // never a typed value
            return UserError.USAGE;
        });
        return cli.execute(args);
    }
}
