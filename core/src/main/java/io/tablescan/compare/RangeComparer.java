package io.tablescan.compare;

import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.StepResult;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares what one scan step read of the source with the same keys of the destination: the spans the step
 * covered itself (its item's range less its hand-offs) are read from the destination, range by range, and
 * merged with the step's rows. Every key of a scan belongs to exactly one item, so each table is read once and
 * each row of either is compared once, however the step paged or cut its remainder.
 */
public final class RangeComparer {
    private RangeComparer() {}

    /** The merge's findings and the destination requests it took. */
    public record Outcome(RowMerge.Result merge, int requests) {}

    public static Outcome compare(String scanId, ScanQuery item, StepResult step, PageReader destination) {
        List<Row> rows = new ArrayList<>();
        int requests = 0;
        for (KeySpan span : KeySpan.covered(item, step.handoffs())) {
            SpanReader.Read read = SpanReader.read(span, destination);
            rows.addAll(read.rows());
            requests += read.requests();
        }
        return new Outcome(RowMerge.merge(scanId, step.rows(), rows), requests);
    }
}
