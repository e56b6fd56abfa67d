package io.tablescan.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * picocli's parse errors restated in one line. picocli's own messages quote the values typed, and a mistyped
 * command line often carries a connection string or a SAS token: so a value is never repeated, only names
 * this tool defines, and a mistyped command or option name when it has the plain shape of a name.
 */
final class ParameterErrors {
    private ParameterErrors() {}

    static String describe(ParameterException e) {
        CommandLine cmd = e.getCommandLine();
        String help = "see " + cmd.getCommandSpec().qualifiedName() + " --help";
        if (e.getMessage() != null && e.getMessage().startsWith("Missing required subcommand")) {
            return "a command is needed (" + String.join(", ", commands(cmd)) + "); " + help;
        }
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            return unmatched(cmd, u.getUnmatched()) + "; " + help;
        }
        if (e instanceof MissingParameterException m) {
            if (!cmd.getUnmatchedArguments().isEmpty()) { // a mistyped option is why the right one is missing
                return unmatched(cmd, cmd.getUnmatchedArguments()) + "; " + help;
            }
            String names = names(m.getMissing());
            if (e.getMessage().startsWith("Missing required option") || e.getMessage().startsWith("Missing required parameter:")
                    || e.getMessage().startsWith("Missing required parameters:")) {
                return "missing " + names + "; " + help;
            }
            return names + " needs a value; " + help;
        }
        if (e instanceof CommandLine.MutuallyExclusiveArgsException) { // restore's --set, --latest, --at
            return cmd.getCommandSpec().argGroups().stream().filter(CommandLine.Model.ArgGroupSpec::exclusive)
                    .map(g -> "give only one of " + names(g.options()).replaceFirst(", ([^,]*)$", " and $1"))
                    .findFirst().orElse("options that exclude each other were given together") + "; " + help;
        }
        if (e instanceof OverwrittenOptionException o) {
            return names(List.of(o.getOverwritten())) + " was given more than once; " + help;
        }
        if (e.getArgSpec() != null) {
            return "invalid value for " + names(List.of(e.getArgSpec())) + expected(e.getArgSpec()) + "; " + help;
        }
        return "invalid arguments for " + cmd.getCommandSpec().qualifiedName() + "; " + help;
    }

    private static String unmatched(CommandLine cmd, List<String> unmatched) {
        String first = unmatched.get(0);
        if (first.startsWith("-")) {
            String name = first.split("=", 2)[0]; // --option=value: the value is never shown
            if (!name.matches("--?[A-Za-z][A-Za-z0-9-]{0,39}")) {
                return "unknown option (not shown: it does not look like an option name)";
            }
            return "unknown option '" + name + "'" + suggestion(name, optionNames(cmd));
        }
        if (!cmd.getSubcommands().isEmpty()) { // no command has both subcommands and positional parameters
            if (!first.matches("[A-Za-z][A-Za-z0-9-]{0,24}")) {
                return "unknown command (not shown: it does not look like a command name; commands: "
                        + String.join(", ", commands(cmd)) + ")";
            }
            return "unknown command '" + first + "'" + suggestion(first, commands(cmd)).replaceFirst("^$",
                    " (commands: " + String.join(", ", commands(cmd)) + ")");
        }
        return unmatched.size() == 1 ? "unexpected argument (not shown)"
                : unmatched.size() + " unexpected arguments (not shown)";
    }

    /** " (did you mean 'copy'?)" for the nearest known name within two edits, else nothing. */
    static String suggestion(String typed, Collection<String> known) {
        Optional<String> nearest = known.stream()
                .min(Comparator.comparingInt((String k) -> distance(typed.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT))));
        return nearest.filter(n -> distance(typed.toLowerCase(java.util.Locale.ROOT), n.toLowerCase(java.util.Locale.ROOT)) <= 2)
                .map(n -> " (did you mean '" + n + "'?)").orElse("");
    }

    private static List<String> commands(CommandLine cmd) {
        return new ArrayList<>(cmd.getSubcommands().keySet());
    }

    private static List<String> optionNames(CommandLine cmd) {
        return cmd.getCommandSpec().options().stream().flatMap(o -> List.of(o.names()).stream()).toList();
    }

    /** An option by its longest name, a positional parameter by its label (SCAN_ID). */
    private static String names(List<? extends ArgSpec> specs) {
        return specs.stream().map(s -> s instanceof OptionSpec o ? o.longestName() : s.paramLabel())
                .collect(Collectors.joining(", "));
    }

    private static String expected(ArgSpec spec) {
        Class<?> type = spec.type();
        if (type.isEnum()) {
            return " (one of " + java.util.Arrays.stream(type.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", ")) + ")";
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return " (a whole number)";
        }
        if (type == java.time.Duration.class) {
            return " (a duration: a number and a unit, s, m or h, as in 90s, 10m, 2h)";
        }
        if (type == java.time.Instant.class) {
            return " (a time: ISO-8601 with its offset, as in 2026-11-23T10:00:00Z, or a date, as in 2026-11-23)";
        }
        return "";
    }

    /** Edits between two names (insert, delete, replace, swap two neighbours): "cpy" is 1 from "copy", "stauts" 1 from "status". */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                if (i == 0 || j == 0) {
                    d[i][j] = i + j;
                    continue;
                }
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
