package io.tablescan.spi;

/**
 * Where a scan reads rows: a table read by key range, one page (one service request) at a time. The scanner
 * asks for pages of the ranges it discovers and restates each remainder as key bounds from the continuation,
 * so a source needs no more than this to be scanned in parallel.
 */
public interface RowSource {
    /** One page of {@code query} over {@code table}, from its start or from {@code from}. */
    Page query(String table, ScanQuery query, QueryOptions options, Continuation from);
}
