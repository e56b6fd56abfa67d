package io.tablescan.cli;

import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.QueryOptions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

/** Builds the spec of a new scan. */
public final class ScanSpecs {
    /** The largest page: the fewest requests. */
    static final int DEFAULT_PAGE_SIZE = QueryOptions.MAX_PAGE_SIZE;
    static final int DEFAULT_PAGE_BUDGET = 5;

    private ScanSpecs() {}

    static String newScanId() {
        return "scan-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    public static ScanSpec copy(TableRef source, TableRef destination, int pageSize, ScanStrategy strategy) {
        return ScanSpec.newBuilder()
                .setScanId(newScanId())
                .setSource(source)
                .setDestination(destination)
                .setStrategy(strategy)
                .setPageSize(pageSize)
                .setPageBudget(DEFAULT_PAGE_BUDGET)
                .setCreatedAtMillis(System.currentTimeMillis())
                .build();
    }
}
