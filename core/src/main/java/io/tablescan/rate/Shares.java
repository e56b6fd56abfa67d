package io.tablescan.rate;

import java.util.Collection;

/**
 * How a cap is shared among the processes that want it: each takes cap x its demand / the total demand, so
 * together they take the cap; a process not yet seen by the others (a newcomer) takes what they leave unused, at
 * least a small floor, and never the whole cap while they use it.
 */
public final class Shares {
    /** A newcomer's share of the cap until its demand is known to all: small, so the total overshoots little. */
    public static final double NEWCOMER = 0.1;

    private Shares() {}

    /**
     * This process's rate.
     *
     * @param cap the scan's cap in rows/s (0 or less: no cap, returned as is)
     * @param mine this process's demand
     * @param others the other processes' current demands
     * @param known whether the others can see this process's demand (its own record came back)
     */
    public static double share(double cap, int mine, Collection<Integer> others, boolean known) {
        return share(cap, mine, others, known, cap, others.size());
    }

    /**
     * As above, where {@code seen} other processes (busy or idle) published for the scan lately and passed
     * {@code othersRate} rows/s: a newcomer takes its part of what they left unused, split as if each of them could
     * come back at once, and at least the floor (work moves between processes: the next item of a chain may land
     * on an idle one, which should not crawl while the others have nothing to do).
     */
    public static double share(double cap, int mine, Collection<Integer> others, boolean known, double othersRate,
            int seen) {
        if (cap <= 0) {
            return cap;
        }
        long total = mine + others.stream().mapToLong(Integer::longValue).sum();
        if (!known || mine <= 0 || total <= 0) {
            double unused = seen > 0 ? (cap - othersRate) / (1 + seen) : 0;
            return Math.max(cap * NEWCOMER, unused);
        }
        return cap * mine / total;
    }
}
