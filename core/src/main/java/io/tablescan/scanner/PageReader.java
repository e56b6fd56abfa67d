package io.tablescan.scanner;

/** Fetches exactly one page (one service request) of a query, from its start or from a continuation. */
@FunctionalInterface
public interface PageReader {
    Page read(ScanQuery query, Continuation from);
}
