package io.tablescan.table;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** How a copy writes a row the destination table already holds: the job option {@value #OPTION}. */
public enum WriteMode {
    /** Overwrites it (upsert, replace): the default. */
    REPLACE,
    /** Merges into it (upsert, merge): properties the source row lacks are kept. */
    MERGE,
    /** Leaves it and reports it (counted as existing): an insert. */
    INSERT,
    /** Leaves it silently (counted as skipped): an insert. */
    SKIP_EXISTING;

    /** The job option's name. */
    public static final String OPTION = "write-mode";

    /** Its name on the command line and in the job's options: "skip-existing". */
    public String option() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether rows the table holds are left as they are. */
    public boolean inserts() {
        return this == INSERT || this == SKIP_EXISTING;
    }

    /** The mode a job's options give (replace when none). */
    public static WriteMode of(Map<String, String> options) {
        String value = options == null ? null : options.get(OPTION);
        return value == null ? REPLACE : parse(value);
    }

    /** The mode of a name ("merge"); an unknown name is an IllegalArgumentException that lists the known ones. */
    public static WriteMode parse(String name) {
        for (WriteMode mode : values()) {
            if (mode.option().equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown write mode '" + name + "' (one of "
                + Arrays.stream(values()).map(WriteMode::option).collect(Collectors.joining(", ")) + ")");
    }
}
