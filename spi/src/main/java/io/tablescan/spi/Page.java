package io.tablescan.spi;

import java.util.List;

/** One page of a query: up to the page size of rows in key order, and where to continue (null: done). */
public record Page(List<Row> rows, Continuation next) {}
