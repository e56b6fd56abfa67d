package io.tablescan.cli;

import io.tablescan.rate.Direction;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Option;

/** The rate caps of a scan, kept by all its workers together: every command that starts one takes them. */
final class RateOptions {
    @Option(names = "--max-rate", paramLabel = "ROWS_PER_S",
            description = "At most this many rows/s read from the source, by all the scan's workers together "
                    + "(within 10%% over any 10 s); change it while it runs with `tablescan throttle`.")
    Long maxRate;

    @Option(names = "--max-write-rate", paramLabel = "ROWS_PER_S",
            description = "At most this many rows/s written to the destination, by all the scan's workers together.")
    Long maxWriteRate;

    void validate() {
        if ((maxRate != null && maxRate < 1) || (maxWriteRate != null && maxWriteRate < 1)) {
            throw new UserError(UserError.USAGE, "--max-rate and --max-write-rate must be at least 1 row per second");
        }
    }

    /** The spec's limits: null when no cap was given (the scan is not capped until a throttle caps it). */
    Map<String, Long> limits() {
        if (maxRate == null && maxWriteRate == null) {
            return null;
        }
        Map<String, Long> limits = new TreeMap<>();
        limits.put(Direction.READ.key, maxRate == null ? 0 : maxRate);
        limits.put(Direction.WRITE.key, maxWriteRate == null ? 0 : maxWriteRate);
        return limits;
    }

    static String describe(Long read, Long write) {
        return (read == null ? "" : "reads " + (read == 0 ? "uncapped" : String.format("%,d rows/s", read)))
                + (read != null && write != null ? ", " : "")
                + (write == null ? "" : "writes " + (write == 0 ? "uncapped" : String.format("%,d rows/s", write)));
    }
}
