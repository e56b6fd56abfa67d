package io.tablescan.cli;

import io.tablescan.schema.ScanStrategy;
import io.tablescan.spi.QueryOptions;
import picocli.CommandLine.Option;

/** The options every command that starts a scan shares. */
final class ScanOptions {
    @Option(names = "--page-size", defaultValue = "" + ScanSpecs.DEFAULT_PAGE_SIZE, paramLabel = "N",
            description = "Rows per query page, 1 to " + QueryOptions.MAX_PAGE_SIZE + " (default ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--strategy", defaultValue = "PREFIX", paramLabel = "STRATEGY",
            description = "PREFIX (parallel) or SERIAL (one chain, for comparison) (default ${DEFAULT-VALUE}).")
    ScanStrategy strategy;

    /** Checks the options; returns the page size. */
    int validPageSize() {
        return Checks.pageSize(pageSize);
    }
}
