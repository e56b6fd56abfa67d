package io.tablescan.compare;

import io.tablescan.scanner.Keys;
import io.tablescan.scanner.PageReader;
import io.tablescan.spi.Bound;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one table over one {@link KeySpan}, page by page with the service's continuation (short and empty pages
 * included): one range query, not a read per row. A span that ends inside a partition is read up to the
 * partition's successor and the paging stops at the first row past the span, so at most one page more is read.
 */
final class SpanReader {
    private SpanReader() {}

    /** The rows of {@code span}, in key order, and the requests it took. */
    record Read(List<Row> rows, int requests) {}

    /** A read that may have stopped at its request budget: {@code complete} false when part of the span is unread. */
    record Budgeted(Read read, boolean complete) {}

    static Read read(KeySpan span, PageReader reader) {
        return read(span, reader, Integer.MAX_VALUE).read();
    }

    /** As {@link #read(KeySpan, PageReader)}, stopping after {@code maxRequests} requests. */
    static Budgeted read(KeySpan span, PageReader reader, int maxRequests) {
        List<Row> rows = new ArrayList<>();
        if (span.isEmpty()) {
            return new Budgeted(new Read(rows, 0), true);
        }
        ScanQuery query = query(span);
        Continuation token = null;
        int requests = 0;
        while (true) {
            Page page = reader.read(query, token);
            requests++;
            for (Row row : page.rows()) {
                if (KeyPoint.row(row.partitionKey(), row.rowKey()).compareTo(span.end()) >= 0) {
                    return new Budgeted(new Read(rows, requests), true); // past the span: another item's
                }
                if (span.contains(row.partitionKey(), row.rowKey())) {
                    rows.add(row);
                }
                if (isLastKey(span, row)) {
                    return new Budgeted(new Read(rows, requests), true); // a point read ends on its row
                }
            }
            if (page.next() == null) {
                return new Budgeted(new Read(rows, requests), true);
            }
            if (requests >= maxRequests) {
                return new Budgeted(new Read(rows, requests), false);
            }
            token = page.next();
        }
    }

    /** True when no key of the span comes after {@code row}'s: a span that ends just after one key, at that key. */
    private static boolean isLastKey(KeySpan span, Row row) {
        KeyPoint end = span.end();
        return end.place() == KeyPoint.Place.AFTER && end.partitionKey().equals(row.partitionKey())
                && end.rowKey().equals(row.rowKey());
    }

    /** A query whose rows start at the span's start and include all of it. */
    static ScanQuery query(KeySpan span) {
        KeyPoint a = span.start();
        KeyPoint b = span.end();
        if (a.inPartition() && b.inPartition() && a.partitionKey().equals(b.partitionKey())) {
            return new PartitionRange(a.partitionKey(), rowLower(a));
        }
        String upper = switch (b.place()) {
            case MAX -> null;
            case PARTITION_START -> b.partitionKey();
            default -> Keys.successor(b.partitionKey()); // null when nothing is above: open
        };
        return switch (a.place()) {
            case MIN -> new KeyRange(null, upper);
            case PARTITION_END -> new KeyRange(Bound.after(a.partitionKey()), upper);
            default -> new KeyRange(Bound.from(a.partitionKey()), rowLower(a), upper);
        };
    }

    private static Bound rowLower(KeyPoint a) {
        return switch (a.place()) {
            case AT -> Bound.from(a.rowKey());
            case AFTER -> Bound.after(a.rowKey());
            case PARTITION_START -> null;
            default -> throw new IllegalArgumentException("no RowKey bound at " + a);
        };
    }
}
