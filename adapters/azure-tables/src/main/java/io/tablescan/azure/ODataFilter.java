package io.tablescan.azure;

import static io.tablescan.scanner.Keys.literal;

import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.List;

/** Builds the $filter of a scan query: at most four key comparisons plus the scan's own row filter. */
public final class ODataFilter {
    private ODataFilter() {}

    /** The filter text, or null when the query reads the whole table. */
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
