package io.tablescan.metrics;

import java.util.List;

/** What the liveness and readiness endpoints report for one part of a process (a worker loop, the ledger). */
public interface Health {
    /** False when the part is dead or stuck: the process should be restarted. */
    boolean live();

    /** True when the part is connected and taking work. */
    boolean ready();

    /** Live and ready only when every part is. */
    static Health all(List<? extends Health> parts) {
        return new Health() {
            @Override
            public boolean live() {
                return parts.stream().allMatch(Health::live);
            }

            @Override
            public boolean ready() {
                return parts.stream().allMatch(Health::ready);
            }
        };
    }
}
