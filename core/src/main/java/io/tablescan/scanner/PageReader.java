package io.tablescan.scanner;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.ScanQuery;

/** Fetches exactly one page (one service request) of a query, from its start or from a continuation. */
@FunctionalInterface
public interface PageReader {
    Page read(ScanQuery query, Continuation from);
}
