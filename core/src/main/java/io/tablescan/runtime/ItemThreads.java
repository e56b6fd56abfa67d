package io.tablescan.runtime;

import java.util.concurrent.ThreadFactory;

/** What a worker runs its items on: one new thread per item, at most its in-flight limit at once. */
public enum ItemThreads {
    /** For writes: thousands in flight, each mostly waiting on the table service. */
    VIRTUAL,
    /**
     * For reads: tens in flight, and the next page of a partition's chain should be read as soon as the last
     * one arrives. A virtual thread waking from a read queues behind every runnable virtual thread; the
     * operating system shares the cores fairly between platform threads and the busy virtual-thread carriers.
     * With a busy copy-worker in the same process, 5-page partition items took 2.3 s instead of 0.5 s.
     */
    PLATFORM;

    ThreadFactory factory(String worker) {
        return this == VIRTUAL
                ? Thread.ofVirtual().name(worker + "-item-", 0).factory()
                : Thread.ofPlatform().name(worker + "-item-", 0).daemon().factory();
    }
}
