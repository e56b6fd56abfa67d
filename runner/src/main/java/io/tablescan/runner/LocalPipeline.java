package io.tablescan.runner;

import io.tablescan.copy.CopyWorker;
import io.tablescan.discovery.DiscoveryWorker;
import io.tablescan.ledger.ScanLedger;
import io.tablescan.metrics.Health;
import io.tablescan.partition.PartitionWorker;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The three workers (one thread each) and the ledger in this process, or the ledger alone when a scan's seed left
 * no item for workers: the local default and the tests' pipeline.
 */
public final class LocalPipeline implements AutoCloseable, Health {
    private static final Logger LOG = LoggerFactory.getLogger(LocalPipeline.class);
    private final List<WorkerRuntime<?>> runtimes = new ArrayList<>();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private ScanLedger ledger;
    /** The workers' settings: their waits for capped rates end when {@link #stopWorkers} stops them. */
    private final WorkerSettings settings;

    /** Items the stopped workers left undone after they had written: see {@link #stoppedAfterWriting()}. */
    private long stoppedAfterWriting;

    private LocalPipeline(WorkerSettings settings) {
        this.settings = settings;
    }

    public static LocalPipeline start(WorkerSettings settings) {
        return start(settings, true);
    }

    /** {@code withLedger}: false when a ledger runs elsewhere (a separate process, or a test's own). */
    public static LocalPipeline start(WorkerSettings settings, boolean withLedger) {
        return start(settings, withLedger, () -> true);
    }

    /**
     * {@code withWorkers}, asked once the ledger has started: false when the scan's seed leaves no item for them
     * (every one was handled before it), so that only the ledger, which counts the seed's events and ends the scan,
     * runs.
     */
    public static LocalPipeline start(WorkerSettings settings, boolean withLedger, BooleanSupplier withWorkers) {
        try (Admin admin = settings.kafka().newAdmin()) {
            settings.createTopics(admin);
            Timeline.mark("topics");
            // The workers and the ledger start while the broker makes the new topics' partitions (their clients,
            // their producers' transactions); the workers join their groups once every partition answers, when the
            // group coordinator knows the topics too, and nothing is produced before.
            LocalPipeline pipeline = new LocalPipeline(settings);
            CompletableFuture<Void> topics = new CompletableFuture<>();
            try {
                if (withLedger) {
                    pipeline.ledger = ScanLedger.start(settings.kafka());
                }
                if (withWorkers.getAsBoolean()) {
                    pipeline.add("discovery", DiscoveryWorker.create(settings).subscribeAfter(topics));
                    pipeline.add("partition", PartitionWorker.create(settings).subscribeAfter(topics));
                    pipeline.add("copy", CopyWorker.create(settings).subscribeAfter(topics));
                }
                settings.awaitTopics(admin);
                topics.complete(null);
            } catch (RuntimeException | Error e) {
                topics.completeExceptionally(e);
                try {
                    pipeline.close();
                } catch (RuntimeException | Error closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
            return pipeline;
        }
    }

    private void add(String name, WorkerRuntime<?> runtime) {
        Thread.ofPlatform().name(name + "-worker").daemon().start(() -> {
            try {
                runtime.run();
            } catch (RuntimeException | Error e) { // a worker process would exit; here the command must end
                LOG.debug("{} worker stopped", name, e);
                failure.compareAndSet(null, "the " + name + " worker stopped (" + e.getClass().getSimpleName()
                        + ": " + e.getMessage() + ")");
            }
        });
        runtimes.add(runtime);
    }

    /** Why a worker of this process stopped while the pipeline ran, or null: the scan cannot go on here then. */
    public String failure() {
        return failure.get();
    }

    @Override
    public boolean live() {
        return parts().live();
    }

    @Override
    public boolean ready() {
        return parts().ready();
    }

    private Health parts() {
        List<Health> parts = new ArrayList<>(runtimes);
        if (ledger != null) {
            parts.add(ledger);
        }
        return Health.all(parts);
    }

    /** Waits until the in-process ledger has its partitions, so progress shows from the first event. */
    public void awaitLedger(Duration timeout) {
        try {
            if (ledger != null && !ledger.awaitRunning(timeout)) {
                throw new IllegalStateException("the ledger did not start within " + timeout.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /**
     * Stops the workers and keeps the ledger: each worker finishes and commits the work in hand (or, past its
     * deadline, leaves it to be replayed), except the requests still waiting for a capped rate, which are not sent
     * (their items are left for a replay: a capped job stops within seconds); the ledger goes on folding what they
     * committed, so that the counts a stopped run prints and saves are those of everything its workers did.
     */
    public synchronized void stopWorkers() { // once, though several scans of a session stop at the same time
        List<WorkerRuntime<?>> workers = new ArrayList<>(runtimes);
        runtimes.clear(); // closed once: close() then stops the ledger alone
        workers.forEach(WorkerRuntime::stopSoon);
        settings.stopRateWaits();
        closeAll(workers);
        stoppedAfterWriting += workers.stream().mapToLong(WorkerRuntime::itemsStoppedAfterWriting).sum();
    }

    /**
     * Whether {@link #stopWorkers} left work in hand undone after it had written (its write cap's wait given up): the
     * rows it wrote are in the destination but not in the scan's counts, which then say less than the destination
     * holds.
     */
    public boolean stoppedAfterWriting() {
        return stoppedAfterWriting > 0;
    }

    @Override
    public synchronized void close() {
        runtimes.forEach(WorkerRuntime::stopSoon); // all at once: leaving a group and closing clients are waits
        List<AutoCloseable> parts = new ArrayList<>(runtimes);
        if (ledger != null) {
            parts.add(ledger);
        }
        closeAll(parts);
        settings.closeRates(); // else its ticker publishes on to a broker that stops next, and says it failed
        ClassArchive.pipelineRan();
        Timeline.mark("pipeline stop");
    }

    private static void closeAll(List<? extends AutoCloseable> parts) {
        try (var closing = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("pipeline-close").factory())) {
            List<Future<Object>> closed = parts.stream().map(part -> closing.submit(() -> {
                part.close();
                return null;
            })).toList();
            for (Future<Object> each : closed) {
                each.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
