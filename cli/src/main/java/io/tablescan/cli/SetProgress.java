package io.tablescan.cli;

import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One progress line for all the scans a backup or a restore runs (several tables at once with --parallel, one scan
 * after another per table), every 5 seconds while any runs: rows done, rows/s of the last 10 seconds or so, elapsed
 * time, and the time left when the rows to come are known (a restore's). A table's own line still comes at its end.
 */
final class SetProgress {
    /** How often each scan reports its totals here; a line is printed at most every {@link #EVERY}. */
    static final Duration POLL = Duration.ofSeconds(1);
    static final Duration EVERY = Duration.ofSeconds(5);
    private final PrintStream out;
    private final LongSupplier clock;
    private final String what;
    private final long total;
    private final long start;
    private final Eta eta;
    /** The rows each scan (by id) has done as last seen: a scan's last figure stays in the sum once it ended. */
    private final Map<String, Long> rows = new HashMap<>();
    private long printed;
    /** A resumed scan's rows when first seen, by scan id: the earlier run's, not in this run's rows/s. */
    private final Map<String, Long> earlier = new HashMap<>();

    /** {@code what}: the rows' noun ("rows read"); {@code total}: the rows to come, or 0 when unknown. */
    SetProgress(PrintStream out, LongSupplier clock, String what, long total) {
        this.out = out;
        this.clock = clock;
        this.what = what;
        this.total = total;
        this.start = clock.getAsLong();
        this.printed = start;
        this.eta = new Eta(clock);
    }

    static SetProgress of(String what, long total) {
        return new SetProgress(System.out, System::currentTimeMillis, what, total);
    }

    /** A scan's totals: kept, and a line printed when the last one is {@link #EVERY} old. */
    synchronized void seen(ScanTotals t) {
        if (t.started()) {
            if (!rows.containsKey(t.scanId()) && t.status().getStartMillis() < start) { // begun by an earlier run
                earlier.put(t.scanId(), t.rowsCopied());
            }
            rows.put(t.scanId(), t.rowsCopied());
        }
        long now = clock.getAsLong();
        if (now - printed >= EVERY.toMillis()) {
            printed = now;
            out.println(line(now));
            out.flush();
        }
    }

    /** The rows of every scan as last seen: what the set's tables have done so far. */
    synchronized long done() {
        return rows.values().stream().mapToLong(Long::longValue).sum();
    }

    /** "  12,000 rows read, 2,400 rows/s, 0:05" (", 600 of 2,000 row writes", ", about 0:59 left" with a total). */
    private String line(long now) {
        long done = rows.values().stream().mapToLong(Long::longValue).sum();
        String left = eta.suffix(done, total); // notes this figure in the window of the rate
        long elapsed = now - start;
        double rate = eta.rate().orElse(elapsed > 0 ? (done - earlier.values().stream().mapToLong(Long::longValue).sum()) * 1000.0 / elapsed : 0);
        String count = total > 0 ? String.format("%,d of %,d %s", done, total, what) : String.format("%,d %s", done, what);
        return String.format("  %s, %,.0f rows/s, %s%s", count, rate, ProgressPrinter.clock(elapsed), left);
    }
}
