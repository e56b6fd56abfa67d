package io.tablescan.azure;

import static io.tablescan.scanner.Keys.literal;

import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Builds the $filter of a scan query: at most four key comparisons plus the scan's own row filter. */
public final class ODataFilter {
    /** The service evaluates at most 15 comparisons in one $filter. */
    public static final int MAX_COMPARISONS = 15;
    /** The most the key bounds of one query take (a range resuming inside its first partition). */
    static final int KEY_COMPARISONS = 4;
    private static final Set<String> COMPARISON_OPERATORS = Set.of("eq", "ne", "gt", "ge", "lt", "le");

    private ODataFilter() {}

    /**
     * Why a scan's row filter cannot be ANDed to its key bounds, or null when it can: it must be one
     * self-contained expression (a filter like {@code a eq 1) or (b eq 2} would close the parentheses around
     * it and match rows outside the item's key range), and leave room for the key bounds' comparisons.
     */
    public static String problem(String rowFilter) {
        int depth = 0;
        int comparisons = 0;
        boolean quoted = false;
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= rowFilter.length(); i++) {
            char c = i < rowFilter.length() ? rowFilter.charAt(i) : ' ';
            if (quoted) { // inside '...', where '' is a quote
                if (c == '\'' && i + 1 < rowFilter.length() && rowFilter.charAt(i + 1) == '\'') {
                    i++;
                } else if (c == '\'') {
                    quoted = false;
                }
                continue;
            }
            if (Character.isLetterOrDigit(c) || c == '_' || c == '.') {
                word.append(c);
                continue;
            }
            if (COMPARISON_OPERATORS.contains(word.toString())) {
                comparisons++;
            }
            word.setLength(0);
            if (c == '\'') {
                quoted = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                return "the row filter closes a parenthesis it did not open";
            }
        }
        if (quoted) {
            return "the row filter has a string literal without its closing quote";
        }
        if (depth != 0) {
            return "the row filter leaves a parenthesis open";
        }
        if (comparisons > MAX_COMPARISONS - KEY_COMPARISONS) {
            return "the row filter has " + comparisons + " comparisons; the service allows " + MAX_COMPARISONS
                    + " in a query and the key bounds take up to " + KEY_COMPARISONS;
        }
        return null;
    }

    /**
     * The filter text, or null when the query reads the whole table.
     *
     * @throws IllegalArgumentException when the row filter has a {@link #problem}
     */
    public static String of(ScanQuery query, String rowFilter) {
        List<String> terms = new ArrayList<>();
        switch (query) {
            case KeyRange range -> rangeTerms(range, terms);
            case PartitionRange partition -> {
                terms.add("PartitionKey eq " + literal(partition.partitionKey()));
                if (partition.rowLower() != null) {
                    terms.add(compare("RowKey", partition.rowLower()));
                }
            }
        }
        if (rowFilter != null && !rowFilter.isBlank()) {
            String problem = problem(rowFilter);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            terms.add("(" + rowFilter + ")");
        }
        return terms.isEmpty() ? null : String.join(" and ", terms);
    }

    private static void rangeTerms(KeyRange range, List<String> terms) {
        Bound lower = range.lower();
        if (lower != null && range.lowerRow() != null) {
            terms.add("((PartitionKey eq " + literal(lower.key()) + " and " + compare("RowKey", range.lowerRow())
                    + ") or PartitionKey gt " + literal(lower.key()) + ")");
        } else if (lower != null && !(lower.inclusive() && lower.key().isEmpty())) {
            terms.add(compare("PartitionKey", lower));
        }
        if (range.upper() != null) {
            terms.add("PartitionKey lt " + literal(range.upper()));
        }
    }

    private static String compare(String property, Bound bound) {
        return property + (bound.inclusive() ? " ge " : " gt ") + literal(bound.key());
    }
}
