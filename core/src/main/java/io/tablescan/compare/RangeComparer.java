package io.tablescan.compare;

import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.StepResult;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Compares what one scan step read of the source with the same keys of the destination: the spans the step
 * covered itself (its item's range less its hand-offs) are read from the destination, range by range, and
 * merged with the step's rows. Every key of a scan belongs to exactly one item, so each table is read once and
 * each row of either is compared once, however the step paged or cut its remainder.
 */
public final class RangeComparer {
    private RangeComparer() {}

    /** The merge's findings and the requests it took besides the step's own. */
    public record Outcome(RowMerge.Result merge, int requests) {}

    /**
     * A source read through a selection (a row filter, --since included): its rows are compared with the rows the
     * destination holds under their keys, whatever the destination's values and Timestamps. Reading the destination
     * through the selection would miss every row whose destination copy it does not select (an incremental's: the
     * copy was written before --since), and they would look missing.
     *
     * @param rowFilter the selection's filter
     * @param source the source unfiltered, to find the destination rows the selection selects whose keys the source
     *     lacks (extra) or holds with values it does not select (different); null: extras are not sought (a copy of
     *     changes only, which keeps them anyway)
     */
    public record Selection(String rowFilter, int pageSize, TableReads source) {}

    /** A source read without a selection: the same key ranges of the destination, read whole. */
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

    /** A source read through {@code selection}: see {@link Selection}. */
    public static Outcome compare(String scanId, ScanQuery item, StepResult step, TableReads destination,
            Selection selection) {
        SpanReader.Read held = KeyedReader.read(step.rows(), destination, selection.pageSize());
        List<Row> source = new ArrayList<>(step.rows());
        List<Row> dest = new ArrayList<>(held.rows());
        int requests = held.requests();
        if (selection.source() != null) {
            Set<String> selected = new HashSet<>();
            step.rows().forEach(r -> selected.add(key(r)));
            PageReader filtered = destination.reader(selection.pageSize(), selection.rowFilter());
            List<Row> others = new ArrayList<>(); // selected in the destination only
            for (KeySpan span : KeySpan.covered(item, step.handoffs())) {
                SpanReader.Read read = SpanReader.read(span, filtered);
                read.rows().stream().filter(r -> !selected.contains(key(r))).forEach(others::add);
                requests += read.requests();
            }
            if (!others.isEmpty()) {
                SpanReader.Read found = KeyedReader.read(others, selection.source(), selection.pageSize());
                source.addAll(found.rows());
                dest.addAll(others);
                requests += found.requests();
            }
        }
        source.sort(RowMerge::compareKeys);
        dest.sort(RowMerge::compareKeys);
        return new Outcome(RowMerge.merge(scanId, source, dest), requests);
    }

    private static String key(Row row) {
        return row.partitionKey() + '\u0000' + row.rowKey();
    }
}
