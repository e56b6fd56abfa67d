package io.tablescan.rate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.tablescan.schema.RateDemand;
import io.tablescan.schema.ScanSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's share of each capped scan's rates. Every second it publishes, per scan and direction, how many
 * requests wanted the rate at once (its demand), reads every process's, and sets its buckets to
 * cap x its demand / the total ({@link Shares}); so all the processes of a scan together stay at the cap, however
 * many there are. The cap is the spec's {@code limits} unless a throttle record on scan-control changed it.
 */
public final class ScanRates implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScanRates.class);
    /**
     * The part of the cap the shares add up to: demands change between ticks (items move between processes, a
     * newcomer's first second), so aiming a little below keeps every 10 s window under the cap.
     */
    static final double TARGET = 0.95;
    /** Lanes idle this long are forgotten (a finished scan's). */
    private static final long IDLE_MILLIS = 60_000;

    private final Demands board;
    private final long tickMillis;
    private final long idleMillis;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    /** Set by {@link #stopWaits}: every lane, made before or after, gives up its waits. */
    private volatile boolean stopped;
    /** The scans seen cancelled: their lanes, made before or after, let waiting requests that may give up go. */
    private final java.util.Set<String> cancelled = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("rate-shares").daemon().factory());

    /** Shares through {@code board}, every {@code tickMillis} (1,000 in a worker: demands are per second). */
    public ScanRates(Demands board, long tickMillis) {
        this(board, tickMillis, IDLE_MILLIS);
    }

    /** As above, forgetting a lane once it has been idle {@code idleMillis} (a test's own). */
    ScanRates(Demands board, long tickMillis, long idleMillis) {
        this.board = board;
        this.tickMillis = tickMillis;
        this.idleMillis = idleMillis;
        ticker.scheduleAtFixedRate(this::tick, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
    }

    /** Whether the spec caps a rate (or may be throttled while it runs): only such scans need a share. */
    public static boolean capped(ScanSpec spec) {
        return spec != null && spec.getLimits() != null;
    }

    /** The spec's cap in a direction, rows/s; 0: none. */
    public static long cap(ScanSpec spec, Direction direction) {
        Long cap = spec.getLimits() == null ? null : spec.getLimits().get(direction.key);
        return cap == null || cap < 0 ? 0 : cap;
    }

    /**
     * This process's share of a capped scan's cap in one direction. Ask for it at each request, not once an item: a
     * lane nobody asked for in a minute, with nothing in it and nothing owed, is forgotten, and a store that kept it
     * would then take from a bucket of its own beside the one the process's other requests share (its process over
     * its share, and no throttle, cancel or stop reaching it).
     */
    public Lane lane(ScanSpec spec, Direction direction) {
        String key = spec.getScanId() + "/" + direction.key;
        // made or stamped under the map's lock for the key, as forgetIdle decides: a lane handed out here is never
        // one that is being forgotten
        Lane made = lanes.compute(key, (k, lane) -> {
            if (lane == null) {
                lane = newLane(spec, direction);
            }
            lane.lastUsed = System.currentTimeMillis();
            return lane;
        });
        if (cancelled.contains(spec.getScanId())) { // a cancel seen while it was made, before the map held it
            made.cancelled(true);
        }
        return made;
    }

    private Lane newLane(ScanSpec spec, Direction direction) {
        Lane lane = new Lane(spec.getScanId(), direction, cap(spec, direction));
        if (stopped) {
            lane.stop();
        }
        lane.cancelled(cancelled.contains(spec.getScanId()));
        Gauge.builder("tablescan.rate.cap", lane, l -> l.cap).description("A capped scan's cap, rows/s (0: none)")
                .tags(Tags.of("scan", spec.getScanId(), "direction", direction.key)).register(Metrics.globalRegistry);
        Gauge.builder("tablescan.rate.share", lane.bucket, TokenBucket::rate)
                .description("This process's share of a capped scan's cap, rows/s")
                .tags(Tags.of("scan", spec.getScanId(), "direction", direction.key)).register(Metrics.globalRegistry);
        return lane;
    }

    /** The scan was cancelled, or its cancel withdrawn (see {@link Lane#run(long, java.util.function.Supplier,
     * java.util.function.ToLongFunction, boolean)}). */
    public void cancelled(String scanId, boolean isCancelled) {
        if (isCancelled) {
            cancelled.add(scanId);
        } else {
            cancelled.remove(scanId);
        }
        lanes.values().stream().filter(l -> l.scanId.equals(scanId)).forEach(l -> l.cancelled(isCancelled));
    }

    /** This process's workers stop: no request waits for a rate any more (see {@link Lane#stop}). */
    public void stopWaits() {
        stopped = true;
        lanes.values().forEach(Lane::stop);
    }

    /** Publishes this process's demands, then sets each bucket to its share of the cap. */
    void tick() {
        try {
            long now = System.currentTimeMillis();
            List<RateDemand> mine = new ArrayList<>();
            for (Lane lane : lanes.values()) {
                Long throttled = board.throttle(lane.scanId, lane.direction);
                lane.cap = throttled != null ? throttled : lane.specCap;
                int demand = lane.takeDemand();
                lane.lastDemand = demand;
                double rowsPerSecond = lane.takeRows() * 1000.0 / tickMillis;
                if (lane.cap > 0 && (demand > 0 || lane.wanted)) {
                    mine.add(new RateDemand(lane.scanId, lane.direction.key, board.process(), demand, rowsPerSecond, now));
                }
                lane.wanted = lane.cap > 0 && demand > 0;
            }
            if (!mine.isEmpty()) {
                board.publish(mine);
            }
            for (Lane lane : lanes.values()) {
                lane.bucket.setRate(share(lane, now));
            }
            forgetIdle(now);
        } catch (RuntimeException e) {
            LOG.warn("could not share the capped scans' rates this second: {}", e.toString());
        }
    }

    private double share(Lane lane, long now) {
        if (lane.cap <= 0) {
            return 0;
        }
        boolean known = false;
        int seen = 0;
        double othersRate = 0;
        List<Integer> others = new ArrayList<>();
        for (RateDemand d : board.demands(lane.scanId, lane.direction, now)) {
            if (d.getProcess().equals(board.process())) {
                known = d.getDemand() > 0;
            } else {
                seen++;
                othersRate += d.getRowsPerSecond();
                if (d.getDemand() > 0) {
                    others.add(d.getDemand());
                }
            }
        }
        double target = seen == 0 ? lane.cap : lane.cap * TARGET; // alone, no demand moves: the whole cap
        return Shares.share(target, lane.lastDemand, others, known, othersRate, seen);
    }

    /** Forgets the lanes that are idle ({@link Lane#idle}), each under the map's lock for its key. */
    private void forgetIdle(long now) {
        for (String key : lanes.keySet()) {
            lanes.computeIfPresent(key, (k, lane) -> lane.idle(now, idleMillis) ? null : lane);
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        board.close();
    }
}
