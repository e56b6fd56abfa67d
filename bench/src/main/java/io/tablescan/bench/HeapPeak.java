package io.tablescan.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most heap in use at once during a benchmark run, sampled every 10 ms. The heap pools' own peaks do not
 * coincide, so adding them would overstate it.
 */
final class HeapPeak implements AutoCloseable {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong peak = new AtomicLong();
    private final ScheduledExecutorService sampler =
            Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("heap-peak").factory());

    /** Collects what earlier runs left, then samples until closed. */
    static HeapPeak start() {
        System.gc();
        HeapPeak heap = new HeapPeak();
        heap.sampler.scheduleAtFixedRate(heap::sample, 0, 10, TimeUnit.MILLISECONDS);
        return heap;
    }

    private void sample() {
        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
    }

    long megabytes() {
        sample();
        return peak.get() / (1024 * 1024);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
