package io.tablescan.runtime;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The records a worker is processing, each on a thread of its own, and the finished ones waiting for the loop
 * thread to take them in. The last record to finish wakes the loop if it is waiting (in a poll), so that finished
 * work is committed at once.
 */
final class InFlightItems implements AutoCloseable {
    /** A record that finished processing (outcome null: abandoned), for the loop thread to commit. */
    record Completion(TopicPartition tp, PartitionProgress partition, long offset, ItemProcessor.Outcome outcome) {}

    private final ExecutorService executor;
    private final Runnable wakeLoop;
    private final LinkedBlockingDeque<Completion> completions = new LinkedBlockingDeque<>();
    /** Records submitted and not finished, abandoned ones included: the last to finish wakes the loop. */
    private final AtomicInteger unfinished = new AtomicInteger();
    /** The sizes of the records submitted and not finished: what the records in hand weigh. */
    private final AtomicLong bytes = new AtomicLong();
    /** Set while the loop waits in poll: only then is a wakeup worth its exception. */
    private volatile boolean waiting;

    /** {@code wakeLoop} cuts the loop's wait short (a consumer's wakeup). */
    InFlightItems(ThreadFactory threads, Runnable wakeLoop) {
        this.executor = Executors.newThreadPerTaskExecutor(threads);
        this.wakeLoop = wakeLoop;
    }

    /**
     * Runs {@code work}, the processing of the record at {@code offset}, on a new thread (null: abandoned);
     * {@code bytes}, the record's size, count in {@link #bytes} until it finishes.
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
            completions.add(new Completion(tp, partition, offset, outcome));
            if (unfinished.decrementAndGet() == 0 && waiting) {
                wakeLoop.run();
            }
        });
    }

    /** The loop's wait (its poll), cut short by {@code wakeLoop} when the last record in flight finishes. */
    <R> R waitFor(Supplier<R> wait) {
        try {
            waiting = unfinished.get() > 0;
            return wait.get();
        } finally {
            waiting = false;
        }
    }

    /** The serialized sizes of the records submitted and not finished. */
    long bytes() {
        return bytes.get();
    }

    /** The next finished record, or null. */
    Completion next() {
        return completions.poll();
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
