package io.tablescan.runner;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a local command's time went, phase by phase from the JVM's start, and its CPU seconds: one line at INFO
 * ({@code TABLESCAN_LOG_LEVEL=INFO}) when the command ends. A phase is named when it ends.
 */
public final class Timeline {
    private static final List<String> PHASES = new ArrayList<>();
    private static long lastMillis = -1;

    private Timeline() {}

    /** The phase that ends now (the first one ends at the command's start: the JVM's start-up). */
    public static synchronized void mark(String phase) {
        long now = ManagementFactory.getRuntimeMXBean().getUptime();
        PHASES.add(String.format(Locale.ROOT, "%s %.2f s", phase, (now - Math.max(lastMillis, 0)) / 1e3));
        lastMillis = now;
    }

    /** Logs the phases so far, the time since the JVM started and the process's CPU seconds. */
    public static synchronized void log() {
        Logger log = LoggerFactory.getLogger(Timeline.class); // not before main has configured the logging
        if (!log.isInfoEnabled()) {
            PHASES.clear();
            return;
        }
        double cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() / 1e9 : Double.NaN;
        log.info(String.format(Locale.ROOT, "took %.2f s from the JVM's start (%.1f CPU-s): %s",
                ManagementFactory.getRuntimeMXBean().getUptime() / 1e3, cpu, String.join(", ", PHASES)));
        PHASES.clear();
    }
}
