package io.tablescan.table;

import java.util.regex.Pattern;

/**
 * The service's rule for table names, in one place for the command line and the workers' item checks:
 * 3 to 63 letters and digits starting with a letter, and not "tables" in any case (the service reserves it).
 */
public final class TableNames {
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

    private TableNames() {}

    /** Why {@code name} cannot be a table name, or null when it can. Quotes the name only when it is safe to show. */
    public static String problem(String name) {
        if (name.equalsIgnoreCase("tables")) {
            return "'" + name + "' is reserved by the Table service; choose another table name";
        }
        if (!SHAPE.matcher(name).matches()) {
            // A mistyped value could be anything (a pasted key): show it only when it is short and plain.
            String shown = name.length() <= 63 && name.matches("[A-Za-z0-9_.-]*") ? "'" + name + "'" : "the value";
            return shown + " is not a valid table name (3 to 63 letters and digits, starting with a letter)";
        }
        return null;
    }

    /** True when two names denote the same table: the service compares table names without case. */
    public static boolean same(String a, String b) {
        return a.equalsIgnoreCase(b);
    }
}
