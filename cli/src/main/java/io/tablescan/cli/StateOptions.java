package io.tablescan.cli;

import io.tablescan.azure.ConnectionString;
import io.tablescan.runner.JobState;
import io.tablescan.runner.StateRoots;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A local job's state folder (see {@link JobState}): --state-dir and --restart, and the job's key, a hash of the
 * options that define the job as typed (the command, accounts, tables, target, selection), not of those that only
 * tune a run (rates, timeout, output, the report's file). A connection string counts by its account and endpoint, never its key.
 */
final class StateOptions {
    /** Options that do not change what a job does. */
    private static final Set<String> TUNING = Set.of("--state-dir", "--restart", "--max-rate", "--max-write-rate",
            "--timeout", "--json", "--report", "--yes", "--help", "--version", "--parallel");

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Where a local job keeps its state until it "
            + "ends, so that the same command run again resumes it (default: $TABLESCAN_STATE_DIR, else "
            + "~/.tablescan/jobs; when that cannot be written, a folder of yours in the temp directory, with a warning).")
    Path stateDir;

    @Option(names = "--restart", description = "Discard what an earlier, unfinished run of this job left and start "
            + "over.")
    boolean restart;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Opens (locks) this job's state; {@code tables} describes it in `tablescan jobs`. */
    JobState open(Map<String, String> env, String tables) {
        StateRoots.Choice root = StateRoots.choose(stateDir, env);
        if (root.warning() != null) {
            System.err.println("tablescan: " + root.warning());
        }
        return JobState.open(root.dir(), key(), command.name(), tables, restart);
    }

    /** The job's key, from the options the command line was parsed with. */
    String key() {
        return JobState.key(definition());
    }

    /**
     * What the user is told when Ctrl-C stopped a local job: the rows done when it stopped, as `tablescan jobs` and
     * the rerun's first line show them (counted once its workers stopped), and how to resume it.
     */
    static String resumeHint(JobState state) {
        return resumeHint(state, ProgressPrinter.plural(state.rows(), "row") + " done");
    }

    /** As {@link #resumeHint(JobState)}, the rows done said as {@code done} ("deleted 1,000 rows", say). */
    static String resumeHint(JobState state, String done) {
        if (!state.resumable()) { // stopped before its scan was seeded: its state goes, nothing to resume
            return "interrupted before the job's scan started: run the same command again to start it (rows a "
                    + "copy wrote meanwhile are written again)";
        }
        // the ledger's count of the work committed: work in hand when stopped may be done too, and the rerun does it
        // again (a copy) or finds it done (a delete's rows already gone, counted then)
        return "interrupted: " + done + " when stopped (at least: work in hand then is redone or counted by the "
                + "rerun); run the same command again to resume it where it stopped (its state is kept in "
                + state.dir() + "; --restart starts over)";
    }

    private String definition() {
        StringBuilder text = new StringBuilder(command.name());
        List<OptionSpec> matched = command.commandLine().getParseResult().matchedOptions().stream()
                .filter(o -> !TUNING.contains(o.longestName()))
                .sorted(Comparator.comparing(OptionSpec::longestName)).toList();
        for (OptionSpec option : matched) {
            text.append('\n').append(option.longestName()).append('=');
            for (String value : option.originalStringValues()) {
                text.append(canonical(option.longestName(), value)).append('\u0000');
            }
        }
        return text.toString();
    }

    private static String canonical(String option, String value) {
        if (option.endsWith("-connection-string")) {
            try {
                ConnectionString cs = ConnectionString.parse(value);
                return cs.account() + "@" + cs.endpoint();
            } catch (RuntimeException e) {
                return value; // only its hash is kept
            }
        }
        if (option.equals("--to") || option.equals("--from")) {
            return Path.of(value).toAbsolutePath().normalize().toString();
        }
        return value;
    }
}
