package io.tablescan.table;

import io.tablescan.scanner.TableRow;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The table service's scalability targets as a pace for the in-memory service: at most so many entities a
 * second per account and per partition, read or written. A request over the pace is answered late, where the
 * real service would throttle it with a 503 (which tablescan retries).
 */
public final class ScalabilityTargets {
    public static final ScalabilityTargets NONE = new ScalabilityTargets(0, 0);

    /** Partitions share paces by hash: a fair model of the hot ones, in bounded memory. */
    private static final int PARTITION_PACES = 4096;

    private final Pace account;
    private final Pace[] partitions;

    /** Zero for no limit. */
    public ScalabilityTargets(int accountPerSecond, int partitionPerSecond) {
        account = accountPerSecond > 0 ? new Pace(accountPerSecond) : null;
        if (partitionPerSecond > 0) {
            partitions = new Pace[PARTITION_PACES];
            Arrays.setAll(partitions, i -> new Pace(partitionPerSecond));
        } else {
            partitions = null;
        }
    }

    /** Waits until the account and each partition touched have room for these entities. */
    void pace(List<TableRow> rows) {
        if ((account == null && partitions == null) || rows.isEmpty()) {
            return;
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
        if (wait > 0) {
            try {
                Thread.sleep(Duration.ofNanos(wait));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TableStoreException("interrupted", 0, true, e);
            }
        }
    }

    /** Hands out time slots so that entities pass at no more than a given rate. */
    private static final class Pace {
        private final double nanosPerEntity;
        private long next;

        Pace(int perSecond) {
            this.nanosPerEntity = 1e9 / perSecond;
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
