package io.tablescan.runtime;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.tablescan.metrics.Health;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consume, process, produce. Records are processed concurrently as they arrive, each on a thread of the
 * worker's {@link ItemThreads} (virtual for writes, platform for reads); every {@link #COMMIT_INTERVAL} the
 * finished ones' outputs, their dead letters, one scan event per scan and each partition's progress (see
 * {@link PartitionProgress}) are committed in one Kafka transaction, so a slow record holds up nothing but its
 * own commit. Before it, the handler's sinks make the rows they were given durable ({@link ItemHandler#flush}).
 * A failure of either aborts it and rewinds, so every record is
 * processed until its effects are committed: at least once, and exactly once for everything written to Kafka
 * (after {@link #PARK_AFTER_FAILED_FLUSHES} failed commit points in a row, the items are parked instead).
 *
 * <p>The transaction is {@link TransactionalOutput}'s, the records in hand {@link InFlightItems}'s, the chains a
 * thread goes on with {@link LocalChains}'. What stays
 * here (polling, collecting, committing, rewinding, the rebalance callbacks and stopping) is one state machine
 * run by the loop thread, kept in one class (about 400 lines) so that its state is not spread out.
 */
public final class WorkerRuntime<T extends SpecificRecord> implements Runnable, AutoCloseable, Health {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRuntime.class);
    /** A loop that has not come back to poll for this long is stuck (every item does bounded work). */
    private static final Duration STUCK_AFTER = Duration.ofMinutes(10);
    /** How long finished work may wait for its commit while other work is still running. */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(100);
    /**
     * Failed commit points in a row (each a sink's flush with its own retries) after which the items of each
     * further failed one are parked, not replayed: a sink that cannot make rows durable must not hold a scan
     * forever. A successful flush starts the count again.
     */
    static final int PARK_AFTER_FAILED_FLUSHES = 5;
    /**
     * The record bytes in hand past which no more are polled: records, not their count, are what the heap holds
     * (an entity page carries a read step's rows), so a hand of big records stays bounded. The bound grows with
     * the slots ({@link #HAND_BYTES_PER_SLOT} each, at least this): a copy-worker with 2,048 writes in flight to
     * a distant account needs pages enough in hand to keep them busy while each page waits for its slowest part
     * (held to 1 MiB, the seed-replica scenario ran at three quarters of its account's limit). A poll brings at
     * most about this much ({@link KafkaSettings}' {@code fetch.max.bytes}); what one brings past twice the
     * bound is fetched again later.
     */
    static final long MIN_HAND_BYTES = 1024 * 1024;
    static final long HAND_BYTES_PER_SLOT = 8 * 1024;
    /** On stop, how long the work in hand may take to finish before it is left to be replayed. */
    private static final Duration FINISH_WITHIN = Duration.ofSeconds(30);
    /** Kafka's default wait for a consumer to leave its group on close. */
    private static final Duration LEAVE_WITHIN = Duration.ofSeconds(30);
    /** A close that neither leaves the group nor waits: nobody takes the partitions of a broker that is ending. */
    private static final CloseOptions AT_ONCE = CloseOptions.timeout(Duration.ZERO)
            .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP);

    private final String worker;
    private final Namespace namespace;
    private final String inputTopic;
    private final Consumer<byte[], byte[]> consumer;
    private final TransactionalOutput output;
    private final ItemHandler<T> handler;
    private final ItemProcessor<T> processor;
    private final AutoCloseable cancelFollower;
    private final Serializer<SpecificRecord> serializer;
    private final InFlightItems inFlight;
    private final LocalChains chains;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final WorkerMeters meters;
    private final KafkaClientMetrics consumerMetrics;
    private volatile boolean running = true;
    /** Commit points failed in a row (the worker loop's thread only). */
    private int failedFlushes;
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean subscribed;
    /** Done once its input topic's partitions answer (see {@link #subscribeAfter}). */
    private volatile Future<?> topicReady = CompletableFuture.completedFuture(null);
    private volatile long lastProgressNanos = System.nanoTime();
    private final int maxInHand;
    private final long handBytes;
    private final boolean closeAtOnce;
    private final AssignedPartitions partitions;
    private final PendingCommit pending = new PendingCommit();
    /** Partitions being revoked: their links are left to the next owner. */
    private Collection<TopicPartition> revoking = List.of();

    /**
     * A runtime handling the items of {@code options.input()} with {@code handler}, consuming with {@code consumer}
     * and producing with the transactional producers of {@code producers} (one at a time, a new one if fenced).
     */
    public WorkerRuntime(RuntimeOptions options, ItemHandler<T> handler, Consumer<byte[], byte[]> consumer,
            Supplier<Producer<byte[], byte[]>> producers) {
        this.worker = options.worker();
        this.cancelFollower = options.cancelFollower();
        this.namespace = options.namespace();
        this.inputTopic = namespace.topic(options.input());
        this.consumer = consumer;
        this.partitions = new AssignedPartitions(consumer);
        this.output = new TransactionalOutput(worker, producers);
        this.serializer = options.serializer();
        this.handler = handler;
        this.processor = new ItemProcessor<>(worker, namespace, handler, serializer, options.deserializer(),
                options.maxInFlight(), options.cancelled());
        this.maxInHand = 2 * options.maxInFlight(); // enough to keep every slot busy while finished work commits
        this.handBytes = handBytes(options.maxInFlight());
        this.closeAtOnce = options.closeAtOnce();
        this.chains = new LocalChains(handler.continuesChains(), processor::slotFree, maxInHand);
        // A link of a partition moved or rewound since is someone else's now: not handled, or its outcome dropped.
        this.inFlight = new InFlightItems(options.itemThreads().factory(worker), consumer::wakeup, chains, link -> {
            if (!partitions.current(link.tp, link.partition)) {
                return record -> null;
            }
            ItemProcessor.Handled handled = processor.handle(link.record.topic(), link.record.headers(),
                    link.record.value());
            return record -> partitions.current(link.tp, link.partition) ? handled.outcome(record) : null;
        });
        this.meters = new WorkerMeters(worker, options.input());
        this.consumerMetrics = new KafkaClientMetrics(consumer); // consumer lag, fetch rates
        consumerMetrics.bindTo(Metrics.globalRegistry);
    }

    /** The record bytes in hand past which a worker with {@code maxInFlight} slots polls no more. */
    static long handBytes(int maxInFlight) {
        return Math.max(MIN_HAND_BYTES, maxInFlight * HAND_BYTES_PER_SLOT);
    }

    /** The consumer group of a worker kind in a namespace (KEDA scales each kind on its group's lag). */
    public static String groupId(Namespace namespace, String worker) {
        return namespace.group(worker);
    }

    /** A runtime with real Kafka clients, from the worker's settings. */
    public static <T extends SpecificRecord> WorkerRuntime<T> create(WorkerSettings settings, String worker,
            ItemKind input, ItemHandler<T> handler, int maxPollRecords, int maxInFlight, ItemThreads itemThreads) {
        KafkaSettings kafka = settings.kafka();
        Consumer<byte[], byte[]> consumer = kafka.newConsumer(groupId(kafka.namespace(), worker), maxPollRecords);
        // One transactional id per instance; zombies are fenced through the consumer group metadata (KIP-447).
        String transactionalId = kafka.namespace().group(worker + "-" + UUID.randomUUID());
        CancelledScans cancelled = CancelledScans.follow(kafka, settings::throttleSeen, settings::cancelSeen);
        RuntimeOptions options = RuntimeOptions.of(worker, kafka.namespace(), input).withMaxInFlight(maxInFlight)
                .withItemThreads(itemThreads).withSerdes(kafka.valueSerializer(), kafka.valueDeserializer())
                .withCancelled(cancelled::contains, cancelled).withCloseAtOnce(kafka.inProcess());
        return new WorkerRuntime<>(options, handler, consumer, () -> kafka.newProducer(transactionalId));
    }

    @Override
    public void run() {
        if (started.getAndSet(true)) {
            return; // closed before it ran, or already running
        }
        try {
            output.open();
            if (!awaitTopic()) {
                return;
            }
            consumer.subscribe(List.of(inputTopic), new Rebalances());
            subscribed = true;
            LOG.info("{} worker consuming {}", worker, inputTopic);
            while (running) {
                ConsumerRecords<byte[], byte[]> records = ConsumerRecords.empty();
                if (partitions.inFlight() >= maxInHand || inFlight.bytes() >= handBytes) {
                    awaitCompletion(pollTimeout()); // enough in hand: no poll, so what was fetched stays buffered
                } else {
                    records = poll();
                    if (records == null) {
                        break;
                    }
                }
                lastProgressNanos = System.nanoTime();
                start(records);
                collectCompleted();
                if (commitDue()) {
                    commit();
                }
                partitions.pauseTheFull();
            }
            finishInFlight();
        } finally {
            closeClients();
            stopped.countDown();
        }
    }

    /**
     * Joins its group only once {@code ready} is done (a local pipeline's: every partition of its topics answers an
     * offset query). A member that joined while the broker still made a new topic's partitions was seen to get no
     * partition from its group coordinator (which learns of new topics after their logs are made) until its next
     * heartbeat, a second later, which a small copy's items waited.
     */
    public WorkerRuntime<T> subscribeAfter(Future<?> ready) {
        this.topicReady = ready;
        return this;
    }

    /** Waits for {@link #subscribeAfter}'s future; false when it failed or the worker was stopped first. */
    private boolean awaitTopic() {
        while (running) {
            try {
                topicReady.get(100, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                // the worker may have been stopped meanwhile
            } catch (ExecutionException | CancellationException e) {
                return false; // the pipeline's start failed: it stops this worker
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Live while the loop runs and keeps coming back to poll (every item does bounded work). */
    @Override
    public boolean live() {
        return stopped.getCount() > 0 && System.nanoTime() - lastProgressNanos < STUCK_AFTER.toNanos();
    }

    /** Ready once subscribed with a transactional producer, until it stops. */
    @Override
    public boolean ready() {
        return subscribed && running && stopped.getCount() > 0;
    }

    /** The next records; empty when the last record in flight finished (commit now); null when asked to stop. */
    private ConsumerRecords<byte[], byte[]> poll() {
        try {
            return inFlight.waitFor(() -> consumer.poll(pollTimeout()));
        } catch (WakeupException e) {
            return running ? ConsumerRecords.empty() : null;
        }
    }

    /** Polls wait at most until the open transaction is due; the last record to finish cuts that short. */
    private Duration pollTimeout() {
        if (pending.any()) {
            Duration left = COMMIT_INTERVAL.minus(pending.age());
            return left.isNegative() ? Duration.ZERO : left;
        }
        return partitions.inFlight() > 0 ? COMMIT_INTERVAL : Duration.ofMillis(500);
    }

    /**
     * Every record on a thread of its own, even one partition's batches: distinct rows, written with
     * upsert-replace, need no order, and a big partition's batches would otherwise be written one by one.
     */
    private void start(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition tp : records.partitions()) {
            PartitionProgress partition = partitions.get(tp);
            for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                if (!partition.fits(record.offset()) || handFull()) {
                    consumer.seek(tp, record.offset()); // fetched again once older records are done
                    break;
                }
                if (!partition.fetched(record.offset())) {
                    continue; // done and committed before a rewind or rebalance, or a link done in place
                }
                // A record of a rewound or revoked partition is someone else's now: not processed here.
                inFlight.submit(tp, partition, record.offset(), Math.max(record.serializedValueSize(), 0),
                        () -> partitions.current(tp, partition) ? processor.process(record) : null);
            }
        }
    }

    /** The records in hand weigh too much to take another (one is always taken into an empty hand). */
    private boolean handFull() {
        return inFlight.bytes() >= 2 * handBytes && partitions.inFlight() > 0;
    }

    /** Takes in the finished records, for the next commit. */
    private void collectCompleted() {
        InFlightItems.Completion done;
        while ((done = inFlight.next()) != null) {
            if (!partitions.current(done.tp(), done.partition()) || done.outcome() == null) {
                if (done.next() != null) {
                    done.next().drop();
                }
                if (done.outcome() == null && partitions.current(done.tp(), done.partition())) {
                    done.partition().abandoned(done.offset()); // its requests not sent as the workers stop
                }
                continue; // abandoned by a rewind or a rebalance, or as the workers stop
            }
            done.partition().completed(done.offset());
            if (done.next() != null) {
                pending.add(done.outcome(), done.next());
            } else {
                pending.add(done.outcome());
            }
        }
    }

    /**
     * Due when nothing else runs, when the oldest finished record waited long enough, or a chain waits for it;
     * with no outputs, when skipped records (links done in place, replays) moved the offsets and no record in hand
     * will commit them: KEDA scales on the group's lag, which must reach 0.
     */
    private boolean commitDue() {
        if (!pending.any()) {
            return partitions.inFlight() == 0 && partitions.changed();
        }
        return partitions.inFlight() == 0 || pending.age().compareTo(COMMIT_INTERVAL) >= 0 || pending.chainWaits();
    }

    /** One transaction: the finished records' outputs, one scan event per scan, and every partition's progress. */
    private void commit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = partitions.toCommit();
        if (!pending.any() && offsets.isEmpty()) {
            return;
        }
        if (pending.any()) {
            Throwable failed = flushFailure();
            if (failed != null && ++failedFlushes < PARK_AFTER_FAILED_FLUSHES) {
                rewind(); // replayed: the sink may have dropped what it held
                return;
            }
            if (failed != null) { // failing for good: parked with the reason, not replayed forever
                // INFO: the items are failed with their reason, which the scan's summary and status report
                LOG.info("{} worker: a sink's commit point failed {} times in a row; parking the items whose rows it "
                        + "held", worker, failedFlushes);
                pending.park(outcome -> outcome.parked(namespace, worker, failed));
            } else {
                failedFlushes = 0;
            }
        }
        TransactionalOutput.Result result;
        while (!(result = output.commit(pending.records(namespace.scanEvents(), serializer), offsets,
                consumer::groupMetadata)).committed()) {
            // A record the broker refuses for good would be refused at every replay, holding every other item: its
            // item is parked with the reason and the rest committed at once. Each round parks one item at least.
            if (pending.park(result.refused(), (outcome, reason) -> outcome.refused(namespace, worker, reason)) == 0) {
                rewind();
                return;
            }
            meters.aborted();
            result.refused().entrySet().stream().filter(e -> e.getKey().topic().equals(namespace.deadLetters()))
                    .findFirst().ifPresent(e -> LOG.error("{} worker: the dead-letter topic {} refused a dead letter "
                            + "({}); its item is counted as failed with its reason (a record that could not be read "
                            + "names no scan: this line is its only report) but cannot be listed by 'failures' "
                            + "or retried: give that topic a max.message.bytes as large as the work topics'", worker,
                            namespace.deadLetters(), e.getValue().getMessage()));
            // INFO: the items are failed with their reason, which the scan's summary and status report
            LOG.info("{} worker: parking the items whose records the broker refused for good ({} records; {})", worker,
                    result.refused().size(), result.refused().values().iterator().next().getMessage());
        }
        partitions.committed(offsets);
        meters.committed(pending.outcomes());
        pending.written().forEach((link, sent) -> {
            boolean ours = running && partitions.current(link.tp, link.partition) && !revoking.contains(link.tp);
            if (chains.written(link, sent, ours)) {
                meters.linked();
            }
        });
        pending.clear(); // drops the links not taken in hand
    }

    /** The handler's commit point (its sinks' flush) before the transaction; what it failed with, or null. */
    private Throwable flushFailure() {
        try {
            handler.flush();
            return null;
        } catch (RuntimeException | LinkageError e) { // a plugin's broken dependency too: replayed, then parked
            LOG.warn("{} worker: a sink's commit point failed ({}), replaying", worker, e.toString());
            return e;
        }
    }

    /** After an abort: uncommitted work is forgotten and fetched again. */
    private void rewind() {
        meters.aborted();
        pending.clear();
        partitions.rewind();
    }

    /** Waits until a record finishes or the timeout passes, leaving the finished record to be collected. */
    private void awaitCompletion(Duration timeout) {
        try {
            inFlight.await(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** On stop: the work in hand is finished and committed (or, past a deadline, left to be replayed). */
    private void finishInFlight() {
        long deadline = System.nanoTime() + FINISH_WITHIN.toNanos();
        while (partitions.inFlight() > 0 && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
            awaitCompletion(Duration.ofMillis(50));
            collectCompleted();
        }
        collectCompleted();
        commit();
    }

    /** Commits finished work of partitions about to move, and forgets them (their unfinished work is replayed). */
    private final class Rebalances implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            inFlight.withoutWakeups(() -> {
                if (output.isOpen() && !partitions.isEmpty()) {
                    revoking = partitions;
                    try {
                        collectCompleted();
                        commit();
                    } finally {
                        revoking = List.of();
                    }
                }
                WorkerRuntime.this.partitions.remove(partitions);
            });
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            // Not ours any more: nothing of them may be committed, so the finished work waiting goes too.
            WorkerRuntime.this.partitions.remove(partitions);
            rewind();
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            inFlight.withoutWakeups(() -> WorkerRuntime.this.partitions.load(partitions));
        }
    }

    private void closeClients() {
        try {
            // Leaves the group so its partitions move at once; on a broker that ends with the command, no wait.
            consumer.close(closeAtOnce ? AT_ONCE : CloseOptions.timeout(LEAVE_WITHIN));
        } catch (RuntimeException e) {
            LOG.debug("closing consumer", e);
        }
        output.close();
        inFlight.close();
        try {
            handler.close(); // its sinks, say: after the work in hand, which is committed or abandoned by now
        } catch (RuntimeException e) {
            LOG.warn("closing the {} handler: {}", worker, e.toString());
        }
        consumerMetrics.close();
        try {
            cancelFollower.close();
        } catch (Exception e) {
            LOG.debug("closing the cancel follower", e);
        }
    }

    /**
     * Items this worker left undone as it stopped, after they had written (a write cap's wait given up mid-item): the
     * rows they wrote are in the destination but in no count until a replay does the item again.
     */
    public long itemsStoppedAfterWriting() {
        return processor.stoppedAfterWriting();
    }

    /** Asks the loop to finish the work in hand and stop, without waiting for it (public for the workers' own tests). */
    public void stopSoon() {
        running = false;
        chains.stop();
        consumer.wakeup();
    }

    /** Stops after the work in hand is committed (or abandoned), then leaves the group. */
    @Override
    public void close() {
        running = false;
        chains.stop();
        if (!started.compareAndExchange(false, true)) {
            closeClients(); // never ran
            stopped.countDown();
            return;
        }
        consumer.wakeup();
        try {
            stopped.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
