package io.tablescan.spi;

import java.util.List;

/** Per-scan query settings: page size (1 to 1,000), projection (null: all properties) and an extra filter. */
public record QueryOptions(int pageSize, List<String> select, String rowFilter) {
    public static final int MAX_PAGE_SIZE = 1000;

    public QueryOptions {
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1 to 1000, got " + pageSize);
        }
    }
}
