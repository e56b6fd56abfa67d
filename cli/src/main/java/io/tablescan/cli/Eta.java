package io.tablescan.cli;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The time left for a known number of rows, at the rate of the last 10 seconds or so (since the first figure during
 * the first 10; the window opens when rows start to move). None until 5 seconds of figures are seen, while no row
 * moves, and once the rows done reach the total (an estimated total was too low): never a made-up one.
 */
final class Eta {
    static final long WARM_UP_MILLIS = 5_000;
    static final long WINDOW_MILLIS = 10_000;
    private final LongSupplier clock;
    /** (millis, rows done), oldest first; the oldest is at most one figure beyond the window. */
    private final ArrayDeque<long[]> seen = new ArrayDeque<>();
    /** Since when no row has moved (the window was emptied for it), or -1 while rows move. */
    private long idleSinceMillis = -1;

    Eta(LongSupplier clock) {
        this.clock = clock;
    }

    /** From now, with {@code done} rows done already. */
    static Eta from(long done) {
        Eta eta = new Eta(System::currentTimeMillis);
        eta.left(done, 0);
        return eta;
    }

    /** Notes {@code done} rows done now; the time left for {@code total}, when one can be known (total > 0). */
    synchronized Optional<Duration> left(long done, long total) {
        long now = clock.getAsLong();
        if (!seen.isEmpty() && seen.getFirst()[1] == done && seen.getLast()[1] == done) {
            // Nothing moved since the first figure (a broker and workers starting, a resumed job): the window starts
            // when rows do, else the idle start halves the first rates and the time left jumps as it leaves.
            if (idleSinceMillis < 0) {
                idleSinceMillis = seen.getFirst()[0];
            }
            seen.clear();
        } else if (!seen.isEmpty() && seen.getLast()[1] != done) {
            idleSinceMillis = -1;
        }
        seen.addLast(new long[] {now, done});
        while (seen.size() > 2 && now - secondOldest() >= WINDOW_MILLIS) {
            seen.removeFirst();
        }
        long[] first = seen.getFirst();
        long millis = now - first[0];
        long rows = done - first[1];
        if (total <= 0 || done >= total || rows <= 0 || millis < WARM_UP_MILLIS) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis((long) Math.ceil((total - done) * (double) millis / rows)));
    }

    /**
     * Rows done per second over the figures of the window (the last 10 seconds or so), as this process saw them come;
     * none until they span a second; 0 once nothing has moved for a window (a worker killed, a stall), not the
     * whole run's average, which the callers fall back to when there is no rate.
     */
    synchronized Optional<Double> rate() {
        if (seen.size() == 1 && idleSinceMillis >= 0 && seen.getLast()[0] - idleSinceMillis >= 1_000) {
            return Optional.of(0.0);
        }
        if (seen.size() < 2 || seen.getLast()[0] - seen.getFirst()[0] < 1_000) {
            return Optional.empty();
        }
        return Optional.of((seen.getLast()[1] - seen.getFirst()[1]) * 1000.0 / (seen.getLast()[0] - seen.getFirst()[0]));
    }

    /** ", about 1:05 left" when an estimate can be known, else nothing. */
    String suffix(long done, long total) {
        return left(done, total).map(d -> ", about " + ProgressPrinter.clock(d.toMillis() + 999) + " left").orElse("");
    }

    private long secondOldest() {
        var it = seen.iterator();
        it.next();
        return it.next()[0];
    }
}
