package io.tablescan.spi;

/**
 * Where the service says a query continues. {@code opaque} is what the table client needs to fetch the
 * next page; the decoded keys let the scanner restate the remainder as bounds ({@code nextRowKey} may be
 * absent: the next row is the first of {@code nextPartitionKey}).
 */
public record Continuation(String opaque, String nextPartitionKey, String nextRowKey) {}
