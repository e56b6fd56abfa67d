package io.tablescan.scanner;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.List;

/** One bounded step through one partition: pages it in RowKey order and hands off the rest at its budget. */
public final class PartitionStep {
    private PartitionStep() {}

    public static StepResult run(PartitionRange partition, int pageBudget, PageReader reader) {
        List<Row> rows = new ArrayList<>();
        List<ScanQuery> handoffs = new ArrayList<>();
        Continuation token = null;
        Row lastRow = null;
        int requests = 0;
        while (true) {
            if (requests >= pageBudget) {
                handoffs.add(Resume.partition(partition, token, lastRow));
                break;
            }
            Page page = reader.read(partition, token);
            requests++;
            rows.addAll(page.rows());
            if (!page.rows().isEmpty()) {
                lastRow = page.rows().get(page.rows().size() - 1);
            }
            if (page.next() == null || !Resume.partitionMayContinue(partition.partitionKey(), page.next())) {
                break;
            }
            token = page.next();
        }
        return new StepResult(rows, handoffs, requests);
    }
}
