package io.tablescan.compare;

import io.tablescan.scanner.PageReader;

/** One table read with the scan's projection, one page per call, in pages of a size and with a filter chosen per read. */
@FunctionalInterface
public interface TableReads {
    /** Pages of {@code pageSize} rows the filter selects ({@code rowFilter} null: every row). */
    PageReader reader(int pageSize, String rowFilter);
}
