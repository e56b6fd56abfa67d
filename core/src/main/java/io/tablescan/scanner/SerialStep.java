package io.tablescan.scanner;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * One bounded step of the serial strategy: pages the range in order with the service's continuation and,
 * when the page budget is spent, hands off the rest as one range. A scan made of these is one chain: the
 * plain serial pager, kept for comparison.
 */
public final class SerialStep {
    private SerialStep() {}

    public static StepResult run(KeyRange range, int pageBudget, PageReader reader) {
        List<Row> rows = new ArrayList<>();
        List<ScanQuery> handoffs = new ArrayList<>();
        Continuation token = null;
        Row lastRow = null;
        int requests = 0;
        while (!range.isEmpty()) {
            if (requests >= pageBudget) {
                handoffs.add(Resume.range(range, token, lastRow));
                break;
            }
            Page page = reader.read(range, token);
            requests++;
            rows.addAll(page.rows());
            if (!page.rows().isEmpty()) {
                lastRow = page.rows().get(page.rows().size() - 1);
            }
            if (page.next() == null) {
                break;
            }
            token = page.next();
        }
        return new StepResult(rows, handoffs, requests);
    }
}
