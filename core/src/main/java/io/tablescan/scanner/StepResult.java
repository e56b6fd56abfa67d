package io.tablescan.scanner;

import java.util.List;

/** What one bounded step did: the rows it read, the work it handed off, and how many requests it made. */
public record StepResult(List<TableRow> rows, List<ScanQuery> handoffs, int requests) {}
