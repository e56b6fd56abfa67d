package io.tablescan.scanner;

import io.tablescan.spi.Bound;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * One bounded step of the prefix scan over a PartitionKey range.
 *
 * <p>Each page ends at some row (k, r). What is still unread of the range is then: the rest of partition k,
 * and the keys above k. The rest of k is handed off as a {@link PartitionRange}. The keys above k are cut at
 * prefixes of k, deepest first: one character past the prefix the page's rows share, a few exponentially
 * spaced shorter ones, and one character past the prefix the whole range shares (the reference's child
 * prefix: the rest of k's sibling). The last cut keeps the reference's fan-out; the others make a long
 * shared key prefix cost a few steps, not one step per character. Every piece but the last is handed off;
 * the step goes on with the last until its page budget is spent, then hands that off too. Ranges are exact
 * bounds, so the pieces never overlap or leave gaps.
 */
public final class PrefixStep {
    private PrefixStep() {}

    /**
     * Where the root cuts what its first page left unread: at each digit and ASCII letter above it. Without
     * this the root walks the first characters of the keys one page at a time, so the last of them (and a big
     * partition there) starts late; pieces that hold no key cost one empty page each, in parallel. The first
     * page comes first so that a small table costs nothing more and a missing table fails once.
     */
    static final String ROOT_CUTS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    public static StepResult run(KeyRange range, int pageBudget, PageReader reader) {
        List<Row> rows = new ArrayList<>();
        List<ScanQuery> handoffs = new ArrayList<>();
        KeyRange current = range;
        Continuation token = null;
        int requests = 0;
        while (current != null && !current.isEmpty()) {
            if (requests >= pageBudget) {
                handoffs.add(Resume.range(current, token, null));
                break;
            }
            Page page = reader.read(current, token);
            requests++;
            rows.addAll(page.rows());
            if (page.next() == null) {
                break;
            }
            if (page.rows().isEmpty()) {
                token = page.next(); // an empty page with a token is normal: keep paging this query
                continue;
            }
            token = null;
            current = split(current, page, handoffs);
            if (range.equals(KeyRange.ALL)) {
                handoffs.addAll(rootPieces(current));
                break;
            }
        }
        return new StepResult(rows, handoffs, requests);
    }

    /** The root's unread remainder (open above) in adjacent pieces, cut at the {@link #ROOT_CUTS} above it. */
    static List<KeyRange> rootPieces(KeyRange remainder) {
        List<KeyRange> pieces = new ArrayList<>();
        Bound start = remainder.lower();
        for (char c : ROOT_CUTS.toCharArray()) {
            String cut = String.valueOf(c);
            if (start == null || cut.compareTo(start.key()) > 0) {
                pieces.add(new KeyRange(start, cut));
                start = Bound.from(cut);
            }
        }
        pieces.add(new KeyRange(start, remainder.upper()));
        return pieces;
    }

    /** Hands off all but the last piece of what the page left unread; returns the last piece. */
    static KeyRange split(KeyRange range, Page page, List<ScanQuery> handoffs) {
        Row first = page.rows().get(0);
        Row last = page.rows().get(page.rows().size() - 1);
        String k = last.partitionKey();
        if (Resume.partitionMayContinue(k, page.next())) {
            handoffs.add(new PartitionRange(k, Bound.after(last.rowKey())));
        }
        String rangePrefix = Keys.commonPrefixOfRange(range.lower() == null ? null : range.lower().key(), range.upper());
        String pagePrefix = Keys.commonPrefix(first.partitionKey(), k);
        if (pagePrefix.length() < rangePrefix.length()) {
            pagePrefix = rangePrefix;
        }
        LinkedHashSet<String> cuts = new LinkedHashSet<>(); // deepest first
        cuts.add(Keys.childPrefix(k, pagePrefix));
        // Between the page's shared prefix and the range's, cut at exponentially spaced lengths: each piece
        // then shares a prefix at most half as far from the data as its parent did, so depth grows with the
        // logarithm of a shared prefix's length, not with the length.
        for (int gap = 0; pagePrefix.length() - gap > rangePrefix.length() + 1; gap = 2 * gap + 1) {
            cuts.add(Keys.prefix(k, pagePrefix.length() - gap));
        }
        cuts.add(Keys.childPrefix(k, rangePrefix));
        Bound start = Bound.after(k);
        for (String cut : cuts) {
            String end = Keys.minUpper(Keys.successor(cut), range.upper());
            if (Objects.equals(end, range.upper())) {
                break; // this piece reaches the end of the range: it is the remainder
            }
            handoffs.add(new KeyRange(start, end));
            start = Bound.from(end);
        }
        return new KeyRange(start, range.upper());
    }
}
