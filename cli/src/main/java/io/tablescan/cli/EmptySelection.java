package io.tablescan.cli;

import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a selection matched no row, when it can be told cheaply: a --since in the future, or a filter naming a
 * property that no row of one page read without the filter has (names are case-sensitive, and a row without the
 * property matches no comparison).
 */
final class EmptySelection {
    /** A property compared in a filter: the name before an operator (literals come after it). */
    private static final Pattern COMPARED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s+(?:eq|ne|gt|ge|lt|le)\\s",
            Pattern.CASE_INSENSITIVE);
    /** Properties every row has. */
    private static final Set<String> ALWAYS = Set.of("PartitionKey", "RowKey", "Timestamp");
    static final int SAMPLE = 1_000;

    private EmptySelection() {}

    /** What looks wrong, or empty when nothing does (the selection may simply match nothing). */
    static Optional<String> why(TableStore source, String table, String filter, Instant since, Instant now) {
        if (since != null && since.isAfter(now)) {
            return Optional.of("--since " + DateTimeFormatter.ISO_INSTANT.format(since.truncatedTo(ChronoUnit.SECONDS))
                    + " is in the future: no row was written after it yet");
        }
        List<String> names = compared(filter);
        if (names.isEmpty()) {
            return Optional.empty();
        }
        List<Row> rows;
        try {
            rows = source.query(table, KeyRange.ALL, new QueryOptions(SAMPLE, null, null), null).rows();
        } catch (TableStoreException e) {
            return Optional.empty(); // only the hint is lost
        }
        if (rows.isEmpty()) {
            return Optional.empty(); // the summary says the source is empty of the selection; nothing to compare with
        }
        Set<String> present = new TreeSet<>(ALWAYS);
        for (Row row : rows) {
            for (RowProperty p : row.properties()) {
                present.add(p.name());
            }
        }
        List<String> absent = new ArrayList<>();
        for (String name : names) {
            if (!present.contains(name)) {
                absent.add(name);
            }
        }
        if (absent.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the filter compares " + String.join(", ", absent) + ", which none of the first "
                + ProgressPrinter.plural(rows.size(), "row") + " of the table has (property names are case-sensitive; "
                + "it has " + String.join(", ", present) + ")");
    }

    /** The property names a filter compares, in order, each once. */
    static List<String> compared(String filter) {
        Set<String> names = new LinkedHashSet<>();
        if (filter != null) {
            Matcher m = COMPARED.matcher(filter.replaceAll("'(?:[^']|'')*'", "''")); // not inside string literals
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return List.copyOf(names);
    }
}
