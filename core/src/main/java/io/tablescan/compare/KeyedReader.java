package io.tablescan.compare;

import io.tablescan.spi.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the rows a table holds under given keys, whatever their values: the other side of a comparison whose
 * source was read through a selection (a filter, --since). A partition with few of the keys is read row by row (a
 * query of one row from the key: one request, as a point read); one with many as one range from its first key to its
 * last, but for no more requests than its point reads would take: the keys past where that range stopped (far apart
 * in a big partition) are read row by row.
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
            int pointFrom = 0;
            if (partition.size() > POINT_READS_AT_MOST) {
                Set<String> wanted = new TreeSet<>();
                partition.forEach(r -> wanted.add(r.rowKey()));
                SpanReader.Budgeted range = SpanReader.read(span(pk, partition.get(0).rowKey(),
                        partition.get(partition.size() - 1).rowKey()), reads.reader(pageSize, null), partition.size());
                List<Row> read = range.read().rows();
                read.stream().filter(r -> wanted.contains(r.rowKey())).forEach(rows::add);
                requests += range.read().requests();
                pointFrom = partition.size();
                if (!range.complete()) { // the keys after the last row read are left to point reads
                    String last = read.isEmpty() ? null : read.get(read.size() - 1).rowKey();
                    pointFrom = 0;
                    while (pointFrom < partition.size() && last != null
                            && partition.get(pointFrom).rowKey().compareTo(last) <= 0) {
                        pointFrom++;
                    }
                }
            }
            for (Row key : partition.subList(pointFrom, partition.size())) {
                SpanReader.Read read = SpanReader.read(span(pk, key.rowKey(), key.rowKey()), reads.reader(1, null));
                rows.addAll(read.rows());
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
