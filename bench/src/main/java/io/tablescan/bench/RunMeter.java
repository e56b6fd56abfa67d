package io.tablescan.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one benchmark run costs: the most heap in use at once, sampled every 10 ms (the heap pools' own peaks do
 * not coincide, so adding them would overstate it), and the CPU time of the whole process (every thread: the
 * workers, the embedded broker, the bench's checking table; not Azurite, a process of its own).
 */
final class RunMeter implements AutoCloseable {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final AtomicLong peak = new AtomicLong();
    private final ScheduledExecutorService sampler =
            Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("heap-peak").factory());
    private final long cpuStart = os.getProcessCpuTime();

    /** Collects what earlier runs left, then samples until closed. */
    static RunMeter start() {
        System.gc();
        RunMeter meter = new RunMeter();
        meter.sampler.scheduleAtFixedRate(meter::sample, 0, 10, TimeUnit.MILLISECONDS);
        return meter;
    }

    private void sample() {
        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
    }

    long megabytes() {
        sample();
        return peak.get() / (1024 * 1024);
    }

    /** CPU seconds the process spent since the start, on all cores. */
    double cpuSeconds() {
        return (os.getProcessCpuTime() - cpuStart) / 1e9;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
