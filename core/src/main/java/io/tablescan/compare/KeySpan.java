package io.tablescan.compare;

import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The keys from {@code start} (inclusive) to {@code end} (exclusive). */
record KeySpan(KeyPoint start, KeyPoint end) {
    static KeySpan of(ScanQuery query) {
        return new KeySpan(KeyPoint.startOf(query), KeyPoint.endOf(query));
    }

    boolean isEmpty() {
        return start.compareTo(end) >= 0;
    }

    boolean contains(String pk, String rk) {
        KeyPoint row = KeyPoint.row(pk, rk);
        return start.compareTo(row) <= 0 && row.compareTo(end) < 0;
    }

    /**
     * What a step read itself: its item's range less the ranges it handed off. The step read every source row
     * there, so the destination is read over exactly these spans: each key of the scan's range belongs to one
     * item, whichever way the step cut its remainder (after the last row, or at the continuation).
     */
    static List<KeySpan> covered(ScanQuery item, List<ScanQuery> handoffs) {
        List<KeySpan> cut = new ArrayList<>();
        for (ScanQuery handoff : handoffs) {
            cut.add(of(handoff));
        }
        cut.sort(Comparator.comparing(KeySpan::start));
        List<KeySpan> covered = new ArrayList<>();
        KeySpan all = of(item);
        KeyPoint from = all.start;
        for (KeySpan piece : cut) {
            if (piece.isEmpty()) {
                continue;
            }
            KeySpan before = new KeySpan(from, min(piece.start, all.end));
            if (!before.isEmpty()) {
                covered.add(before);
            }
            if (piece.end.compareTo(from) > 0) {
                from = piece.end;
            }
        }
        KeySpan rest = new KeySpan(from, all.end);
        if (!rest.isEmpty()) {
            covered.add(rest);
        }
        return covered;
    }

    private static KeyPoint min(KeyPoint a, KeyPoint b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
