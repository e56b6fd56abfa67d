package io.tablescan.scanner;

/**
 * How much work a scan may do, stated so that tests can hold the scanner to it.
 *
 * <p>Let S be the pages that returned rows and a continuation, E the empty pages with a continuation, and L
 * the longest PartitionKey (UTF-16 code units). A prefix step splits once per page with rows; a split hands
 * off at most one partition query plus {@link #maxCuts} ranges. A step hands off its remainder at most once,
 * after a page with a continuation, and every item ends after at most one page without a continuation. The
 * root's first split hands off up to P = {@link #ROOT_PIECES} more ranges. So items ≤ 1 + P + S·(1 + C) + (S + E)
 * and requests = S + E + (final pages) ≤ P + (3 + C)·S + 2E.
 *
 * <p>When the service returns full pages (every page with a continuation holds the page size N of rows, as
 * Azurite does), S ≤ R/N for R rows, so requests ≤ P + (3 + C)·R/N. The serial strategy needs R/N + 1.
 */
public final class ScanCosts {
    private ScanCosts() {}

    /** The most ranges one split hands off: two fixed cuts plus the exponentially spaced ones. */
    public static int maxCuts(int maxKeyLength) {
        return 2 + (32 - Integer.numberOfLeadingZeros(maxKeyLength)); // 2 + ceil(log2(L + 1))
    }

    /** The most ranges the root's cut at first characters adds. */
    public static final int ROOT_PIECES = PrefixStep.ROOT_CUTS.length() + 1;

    /** The most requests a scan may make, given its pages with continuations. */
    public static long maxRequests(long continuedPages, long emptyContinuedPages, int maxKeyLength) {
        return ROOT_PIECES + (3L + maxCuts(maxKeyLength)) * continuedPages + 2 * emptyContinuedPages;
    }
}
