package io.tablescan.scanner;

import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.List;

/** What one bounded step did: the rows it read, the work it handed off, and how many requests it made. */
public record StepResult(List<Row> rows, List<ScanQuery> handoffs, int requests) {}
