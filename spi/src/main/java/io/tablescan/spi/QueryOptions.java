package io.tablescan.spi;

import java.util.List;

/** Per-scan query settings: page size (1 to 1,000), projection (null: all properties) and an extra filter. */
public record QueryOptions(int pageSize, List<String> select, String rowFilter) {
    /** The most rows the service returns in one page. */
    public static final int MAX_PAGE_SIZE = 1000;

    public QueryOptions {
        String problem = pageSizeProblem(pageSize);
        if (problem != null) {
            throw new IllegalArgumentException("page size " + problem);
        }
    }

    /**
     * What is wrong with {@code pageSize} ("must be 1 to 1000, got 0"), or null when it is valid: the one rule
     * for the command line, the workers' item checks and the queries, each naming the value its own way.
     */
    public static String pageSizeProblem(int pageSize) {
        return pageSize >= 1 && pageSize <= MAX_PAGE_SIZE ? null : "must be 1 to " + MAX_PAGE_SIZE + ", got " + pageSize;
    }
}
