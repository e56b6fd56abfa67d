package io.tablescan.compare;

import io.tablescan.spi.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the rows a table holds under given keys, whatever their values: the other side of a comparison whose
 * source was read through a selection (a filter, --since). The selection's rows are few where it matters (an
 * incremental's changes), so a partition with few of them is read row by row (a query of one row from the key:
 * one request, as a point read), one with many as one range from its first key to its last.
 */
final class KeyedReader {
    /** A partition with more of the keys than this is read as one range. */
    static final int POINT_READS_AT_MOST = 10;

    private KeyedReader() {}

    /** The rows of {@code reads}' table under the keys of {@code keys} (in key order), and the requests taken. */
    static SpanReader.Read read(List<Row> keys, TableReads reads, int pageSize) {
        List<Row> sorted = new ArrayList<>(keys);
        sorted.sort(RowMerge::compareKeys);
        List<Row> rows = new ArrayList<>();
        int requests = 0;
        int i = 0;
        while (i < sorted.size()) {
            String pk = sorted.get(i).partitionKey();
            int end = i;
            while (end < sorted.size() && sorted.get(end).partitionKey().equals(pk)) {
                end++;
            }
            List<Row> partition = sorted.subList(i, end);
            if (partition.size() <= POINT_READS_AT_MOST) {
                for (Row key : partition) {
                    SpanReader.Read read = SpanReader.read(span(pk, key.rowKey(), key.rowKey()), reads.reader(1, null));
                    rows.addAll(read.rows());
                    requests += read.requests();
                }
            } else {
                Set<String> wanted = new TreeSet<>();
                partition.forEach(r -> wanted.add(r.rowKey()));
                SpanReader.Read read = SpanReader.read(span(pk, partition.get(0).rowKey(),
                        partition.get(partition.size() - 1).rowKey()), reads.reader(pageSize, null));
                read.rows().stream().filter(r -> wanted.contains(r.rowKey())).forEach(rows::add);
                requests += read.requests();
            }
            i = end;
        }
        rows.sort(RowMerge::compareKeys);
        return new SpanReader.Read(rows, requests);
    }

    /** The keys of partition {@code pk} from RowKey {@code first} to {@code last}, both included. */
    private static KeySpan span(String pk, String first, String last) {
        return new KeySpan(KeyPoint.row(pk, first), new KeyPoint(KeyPoint.Place.AFTER, pk, last));
    }
}
