package io.tablescan.rate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One account's back-off in this process: an {@link Aimd} pace for the account, and one per partition that the
 * service throttled (a hot partition slows alone). A throttle of a request to one partition lowers that partition's
 * pace; the account's is lowered by throttles of requests to no one partition (range reads) or of a second
 * partition within a second, which say the account itself is at its limit.
 */
public final class Backoff {
    private static final int MAX_PARTITIONS = 10_000;

    private final Aimd account = new Aimd();
    private final Map<String, Aimd> partitions = new ConcurrentHashMap<>();
    private String lastThrottledPartition;
    private long lastPartitionThrottle = Long.MIN_VALUE / 2;

    /** Each alias's gauge, registered once per process, showing its latest back-off (a process may open stores again). */
    private static final Map<String, AtomicReference<Aimd>> GAUGED = new ConcurrentHashMap<>();

    public Backoff(String alias) {
        GAUGED.computeIfAbsent(alias, a -> {
            AtomicReference<Aimd> latest = new AtomicReference<>();
            Gauge.builder("tablescan.table.backoff.rate", latest, r -> r.get() == null ? 0 : r.get().rate())
                    .description("The requests/s an account is held to after throttling (0: not backing off)")
                    .tag("account", a).register(Metrics.globalRegistry);
            return latest;
        }).set(account);
    }

    /** Waits for the account's pace and the partition's ({@code partition} null: a request to no one partition). */
    public void before(String partition) throws InterruptedException {
        long now = System.currentTimeMillis();
        account.before(now);
        Aimd hot = partition == null ? null : partitions.get(partition);
        if (hot != null) {
            hot.before(now);
        }
    }

    public void passed(String partition) {
        long now = System.currentTimeMillis();
        account.passed(now);
        Aimd hot = partition == null ? null : partitions.get(partition);
        if (hot != null) {
            hot.passed(now);
            if (hot.rate() <= 0) {
                partitions.remove(partition, hot);
            }
        }
    }

    public void throttled(String partition) {
        long now = System.currentTimeMillis();
        if (partition == null || secondPartition(partition, now)) {
            account.throttled(now);
        }
        if (partition != null) {
            if (partitions.size() >= MAX_PARTITIONS) {
                partitions.clear(); // bounded memory; the account's pace still holds
            }
            partitions.computeIfAbsent(partition, p -> new Aimd()).throttled(now);
        }
    }

    private synchronized boolean secondPartition(String partition, long now) {
        boolean second = now - lastPartitionThrottle < 1000 && !partition.equals(lastThrottledPartition);
        lastThrottledPartition = partition;
        lastPartitionThrottle = now;
        return second;
    }

    /** The account's pace in requests/s, 0 when not backing off. */
    public double accountRate() {
        return account.rate();
    }

    /** How many partitions are paced now. */
    public int hotPartitions() {
        return partitions.size();
    }
}
