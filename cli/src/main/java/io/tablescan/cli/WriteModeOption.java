package io.tablescan.cli;

import io.tablescan.table.WriteMode;
import java.util.Map;
import picocli.CommandLine.Option;

/** How a copy writes rows its destination table holds already: the commands that copy into a table take it. */
final class WriteModeOption {
    @Option(names = "--write-mode", paramLabel = "MODE", description = "How a row the destination table holds "
            + "already is written: replace (default: overwritten), merge (properties the source row lacks are kept), "
            + "insert (left as it is and reported; exit 7 if any held other values), skip-existing (left as it is, "
            + "counted as skipped).")
    String writeMode;

    /** The job's options: the mode when given (checked by the job, see CopyJob#validate). */
    Map<String, String> options() {
        return writeMode == null ? Map.of() : Map.of(WriteMode.OPTION, writeMode);
    }

    /** Whether rows the destination holds are replaced (the default): its warning about them says so. */
    boolean replaces() {
        return writeMode == null || writeMode.equals(WriteMode.REPLACE.option());
    }

    /** Refused with another job than a copy ({@code job} named as the user did). */
    void onlyForCopy(boolean copy, String job) {
        if (writeMode != null && !copy) {
            throw new UserError(UserError.USAGE, "--write-mode goes with a copy, not with " + job
                    + " (a mirror's writes are conditional on what it read)");
        }
    }
}
