package io.tablescan.runtime;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The records a worker is processing, each on a thread of its own, and the finished ones waiting for the loop
 * thread to take them in. The last record to finish wakes the loop if it is waiting (in a poll), so that finished
 * work is committed at once; so does a record whose thread waits to go on with its chain ({@link LocalChains}).
 */
final class InFlightItems implements AutoCloseable {
    /**
     * A record that finished processing (outcome null: abandoned), for the loop thread to commit; {@code next}:
     * the continuation its thread goes on with once that commit wrote it, or null.
     */
    record Completion(TopicPartition tp, PartitionProgress partition, long offset, ItemProcessor.Outcome outcome,
            LocalChains.Link next) {}

    private final ExecutorService executor;
    private final Runnable wakeLoop;
    private final LocalChains chains;
    private final Function<LocalChains.Link, ItemProcessor.Handled> handleLink;
    private final LinkedBlockingDeque<Completion> completions = new LinkedBlockingDeque<>();
    /** Records submitted and not finished, abandoned ones included: the last to finish wakes the loop. */
    private final AtomicInteger unfinished = new AtomicInteger();
    /** The sizes of the records submitted and not finished: what the records in hand weigh. */
    private final AtomicLong bytes = new AtomicLong();
    /** Finished records whose thread waits to go on with its chain, not yet taken in by the loop. */
    private final AtomicInteger chainsWaiting = new AtomicInteger();
    /** Set while the loop waits in poll: only then is a wakeup worth its exception. */
    private volatile boolean waiting;

    /**
     * {@code wakeLoop} cuts the loop's wait short (a consumer's wakeup); {@code chains} decides which
     * continuations a thread goes on with, and {@code handleLink} handles one (its outcome null: abandoned).
     */
    InFlightItems(ThreadFactory threads, Runnable wakeLoop, LocalChains chains,
            Function<LocalChains.Link, ItemProcessor.Handled> handleLink) {
        this.executor = Executors.newThreadPerTaskExecutor(threads);
        this.wakeLoop = wakeLoop;
        this.chains = chains;
        this.handleLink = handleLink;
    }

    /**
     * Runs {@code work}, the processing of the record at {@code offset}, on a new thread (null: abandoned), then
     * the links of its chain that the thread goes on with; {@code bytes}, the record's size, count in
     * {@link #bytes} until its own processing finishes.
     */
    void submit(TopicPartition tp, PartitionProgress partition, long offset, int bytes,
            Supplier<ItemProcessor.Outcome> work) {
        unfinished.incrementAndGet();
        this.bytes.addAndGet(bytes);
        executor.submit(() -> {
            ItemProcessor.Outcome outcome;
            try {
                outcome = work.get();
            } finally {
                this.bytes.addAndGet(-bytes);
            }
            Completion done = new Completion(tp, partition, offset, outcome, null);
            while (done != null) {
                Completion posted = chains.next(done, unfinished.get());
                if (posted.next() == null) {
                    completions.add(posted);
                    break;
                }
                chainsWaiting.incrementAndGet();
                completions.add(posted);
                if (waiting) {
                    wakeLoop.run(); // commit now: the chain goes on once its next link is written
                }
                done = chains.follow(posted.next(), handleLink);
            }
            if (unfinished.decrementAndGet() == 0 && waiting) {
                wakeLoop.run();
            }
        });
    }

    /** The loop's wait (its poll), cut short by {@code wakeLoop} when the last record in flight finishes. */
    <R> R waitFor(Supplier<R> wait) {
        try {
            waiting = unfinished.get() > 0;
            if (waiting && chainsWaiting.get() > 0) {
                wakeLoop.run(); // a chain posted before the wait began: no waiting
            }
            return wait.get();
        } finally {
            waiting = false;
        }
    }

    /**
     * Runs a rebalance callback, which the consumer calls inside the loop's poll: a record finishing meanwhile does not
     * wake the consumer, as a wakeup would abort the callback's own calls (its committed offsets) and, with the
     * callback failed, the consumer would leave the partitions it was given unfetched (seen in the kill tests: a
     * discovery-worker's scans stalled). The loop is woken after, if a record finished meanwhile.
     */
    void withoutWakeups(Runnable callback) {
        boolean wasWaiting = waiting;
        waiting = false;
        int unfinishedBefore = unfinished.get();
        try {
            callback.run();
        } finally {
            waiting = wasWaiting;
            if (wasWaiting && (unfinished.get() < unfinishedBefore || chainsWaiting.get() > 0)) {
                wakeLoop.run();
            }
        }
    }

    /** The records submitted whose threads have not finished, their chains included. */
    int unfinished() {
        return unfinished.get();
    }

    /** The serialized sizes of the records submitted and not finished. */
    long bytes() {
        return bytes.get();
    }

    /** The next finished record, or null. */
    Completion next() {
        Completion done = completions.poll();
        if (done != null && done.next() != null) {
            chainsWaiting.decrementAndGet();
        }
        return done;
    }

    /** Waits until a record finishes or the timeout passes, leaving the finished record for {@link #next}. */
    void await(Duration timeout) throws InterruptedException {
        Completion done = completions.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (done != null) {
            completions.addFirst(done);
        }
    }

    /** Interrupts the records still running: they are abandoned. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
