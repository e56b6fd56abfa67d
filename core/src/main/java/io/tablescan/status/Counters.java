package io.tablescan.status;

import java.util.HashMap;
import java.util.Map;

/**
 * Jobs' named counters, summed exactly as rows read are: an event's and a status's {@code counters} map. The four
 * names here are those whose counts records of earlier versions hold in fields of their own (rowsMissing,
 * rowsDiffering, rowsExtra, rowsDeleted): {@link #plus} folds them in.
 */
public final class Counters {
    /** Source rows the destination lacks. */
    public static final String MISSING = "missing";
    /** Rows in both whose properties differ. */
    public static final String DIFFERENT = "different";
    /** Destination rows the source lacks. */
    public static final String EXTRA = "extra";
    /** Destination rows deleted. */
    public static final String DELETED = "deleted";
    /** Rows to delete kept: they changed since they were read; rows a skip-existing copy left. */
    public static final String SKIPPED = "skipped";
    /** Rows an insert-mode copy left: the destination held other values under their keys. */
    public static final String EXISTING = "existing";
    /** Destination rows a mirror did not overwrite: changed (or created) after its comparison read them. */
    public static final String CONFLICTS = "conflicts";

    /**
     * Not a job's: set to 1 on the event a rerun of a stopped local job sends as it resumes the scan; the status sums
     * the resumes (see ScanFold).
     */
    public static final String RESUMED = io.tablescan.runtime.ScanEventBuilder.RESUMED;
    /** Not a job's: the status's time between a stopped run's last event and the resume, left out of its duration. */
    public static final String STOPPED_MILLIS = "stopped-millis";

    private Counters() {}

    /** True for the counters that are the status's own marks ({@link #RESUMED}, {@link #STOPPED_MILLIS}), not a job's. */
    public static boolean isBookkeeping(String name) {
        return RESUMED.equals(name) || STOPPED_MILLIS.equals(name);
    }

    /** {@code a} plus {@code b}, name by name, with the counts of the legacy fields of {@code b}'s record. */
    public static Map<String, Long> plus(Map<String, Long> a, Map<String, Long> b, long missing, long different,
            long extra, long deleted) {
        Map<String, Long> sum = new HashMap<>(a);
        b.forEach((name, n) -> add(sum, name, n));
        add(sum, MISSING, missing);
        add(sum, DIFFERENT, different);
        add(sum, EXTRA, extra);
        add(sum, DELETED, deleted);
        return sum;
    }

    private static void add(Map<String, Long> sum, String name, long n) {
        if (n != 0) {
            sum.merge(name, n, Long::sum);
        }
    }
}
