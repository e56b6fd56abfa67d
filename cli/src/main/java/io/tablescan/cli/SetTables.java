package io.tablescan.cli;

import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/** Which tables of an account a backup set holds: all, a list, or the names a glob matches. */
final class SetTables {
    @Option(names = "--all-tables", description = "Every table of the account.")
    boolean all;

    @Option(names = "--tables", split = ",", paramLabel = "A,B", description = "These tables (each must exist).")
    List<String> names;

    @Option(names = "--table-pattern", paramLabel = "GLOB", description = "The tables whose names match GLOB: "
            + "* any characters, ? one; case-sensitive, e.g. 'Prod*'.")
    String pattern;

    /** The tables, in the service's order; one line and exit 2 for a mistake, 4 when nothing matches. */
    List<String> resolve(TableStore source) {
        int given = (all ? 1 : 0) + (names != null ? 1 : 0) + (pattern != null ? 1 : 0);
        if (given != 1) {
            throw new UserError(UserError.USAGE, "give one of --all-tables, --tables A,B and --table-pattern GLOB");
        }
        if (names != null) {
            if (names.isEmpty()) { // "--tables ,": a set of no table would have nothing to write
                throw new UserError(UserError.USAGE, "--tables names no table: give A,B");
            }
            List<String> tables = new ArrayList<>();
            for (String name : names) {
                Checks.tableName("--tables", name);
                Checks.tableExists(source, name, "source");
                if (!tables.contains(name)) {
                    tables.add(name);
                }
            }
            return tables;
        }
        if (pattern != null && !pattern.matches("[A-Za-z0-9*?]{1,63}")) {
            throw new UserError(UserError.USAGE, "--table-pattern must be letters, digits, * and ?");
        }
        List<String> tables;
        try {
            tables = source.listTables();
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()), "cannot list the source's tables" + Checks.at(source, e)
                    + ": " + e.getMessage());
        }
        if (pattern != null) {
            Pattern glob = Pattern.compile(pattern.replace("*", ".*").replace("?", "."));
            tables = tables.stream().filter(t -> glob.matcher(t).matches()).toList();
        }
        if (tables.isEmpty()) {
            throw new UserError(UserError.NOT_FOUND, "the source account has no table"
                    + (pattern == null ? "" : " that matches " + pattern) + ": nothing to back up");
        }
        return tables;
    }
}
