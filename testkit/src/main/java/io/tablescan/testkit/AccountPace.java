package io.tablescan.testkit;

import io.tablescan.spi.Row;
import io.tablescan.spi.TableStoreException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One in-memory account's {@link ScalabilityTargets} as a pace. A request over the pace is answered late,
 * where the real service would throttle it with a 503 (which tablescan retries).
 */
final class AccountPace {
    /** Partitions share paces by hash: a fair model of the hot ones, in bounded memory. */
    private static final int PARTITION_PACES = 4096;
    /** How far ahead an account's or a partition's requests may be booked before it throttles (with throttles). */
    private static final long BUSY_NANOS = 200_000_000L;

    private final Pace account;
    private final Pace[] partitions;
    private final boolean throttles;
    private final java.util.concurrent.atomic.AtomicLong over = new java.util.concurrent.atomic.AtomicLong();

    AccountPace(ScalabilityTargets targets) {
        throttles = targets.throttles();
        account = targets.accountPerSecond() > 0 ? new Pace(targets.accountPerSecond()) : null;
        if (targets.partitionPerSecond() > 0) {
            partitions = new Pace[PARTITION_PACES];
            Arrays.setAll(partitions, i -> new Pace(targets.partitionPerSecond()));
        } else {
            partitions = null;
        }
    }

    /** Waits until the account and each partition touched have room for these entities. */
    void pace(List<Row> rows) {
        if (throttles && busy(rows) && over.incrementAndGet() % 2 == 0) {
            throw new TableStoreException("ServerBusy: the account is over its scalability targets", 503, true, null);
        }
        long wait = reserve(rows);
        if (wait > 0) {
            try {
                Thread.sleep(Duration.ofNanos(wait));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TableStoreException("interrupted", 0, true, e);
            }
        }
    }

    /** Whether the account or a partition touched is over its pace now (requests booked more than 200 ms ahead). */
    private boolean busy(List<Row> rows) {
        if (account != null && account.busy()) {
            return true;
        }
        return partitions != null && rows.stream()
                .anyMatch(row -> partitions[Math.floorMod(row.partitionKey().hashCode(), PARTITION_PACES)].busy());
    }

    /** Reserves room for these entities; returns how long the request must wait for it, in nanoseconds. */
    long reserve(List<Row> rows) {
        if ((account == null && partitions == null) || rows.isEmpty()) {
            return 0;
        }
        long wait = account == null ? 0 : account.reserve(rows.size());
        if (partitions != null) {
            Map<String, Integer> perPartition = new HashMap<>();
            rows.forEach(row -> perPartition.merge(row.partitionKey(), 1, Integer::sum));
            for (var entry : perPartition.entrySet()) {
                Pace pace = partitions[Math.floorMod(entry.getKey().hashCode(), PARTITION_PACES)];
                wait = Math.max(wait, pace.reserve(entry.getValue()));
            }
        }
        return wait;
    }

    /** Hands out time slots so that entities pass at no more than a given rate. */
    private static final class Pace {
        private final double nanosPerEntity;
        private long next;

        Pace(int perSecond) {
            this.nanosPerEntity = 1e9 / perSecond;
        }

        /** Over its rate: requests already reserved more than {@link #BUSY_NANOS} ahead. */
        synchronized boolean busy() {
            return next - System.nanoTime() > BUSY_NANOS;
        }

        /** Reserves n entities' worth of time; returns how long the caller must wait for its slot. */
        synchronized long reserve(int n) {
            long now = System.nanoTime();
            long start = Math.max(now, next);
            next = start + (long) (n * nanosPerEntity);
            return start - now;
        }
    }
}
