package io.tablescan.bench;

import java.util.List;
import java.util.Locale;

/** How closely a capped run held its cap: over the whole run, and in its fullest 10 s window. */
final class RateHeld {
    private static final double WINDOW = 10;

    private RateHeld() {}

    /** {@code points}: (seconds from the start, rows read so far), as the run sampled them. */
    static String describe(long cap, double seconds, List<double[]> points) {
        double overall = points.get(points.size() - 1)[1] / seconds;
        double highest = 0;
        for (double[] from : points) {
            double[] to = null;
            for (double[] p : points) {
                if (p[0] <= from[0] + WINDOW) {
                    to = p;
                }
            }
            if (to != null && to[0] - from[0] >= WINDOW * 0.95) {
                highest = Math.max(highest, (to[1] - from[1]) / (to[0] - from[0]));
            }
        }
        return String.format(Locale.ROOT, "cap %,d rows/s: %,.0f rows/s over the run (%.1f%% of the cap), %,.0f in "
                + "the fullest 10 s window (%.1f%%)", cap, overall, 100 * overall / cap, highest, 100 * highest / cap);
    }
}
