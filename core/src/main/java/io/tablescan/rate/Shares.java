package io.tablescan.rate;

import java.util.Collection;

/**
 * How a cap is shared among the processes that want it: each takes cap x its demand / the total demand, so
 * together they take the cap; a process not yet seen by the others (a newcomer) takes a small floor, never all.
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
        if (cap <= 0) {
            return cap;
        }
        long total = mine + others.stream().mapToLong(Integer::longValue).sum();
        if (!known || mine <= 0 || total <= 0) {
            return cap * NEWCOMER;
        }
        return cap * mine / total;
    }
}
