package io.tablescan.ledger;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.tablescan.metrics.Health;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.TopicReplication;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanStatus;
import io.tablescan.status.ScanFold;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scan ledger: a Kafka Streams application (exactly-once) that folds the committed scan events into one
 * {@link ScanStatus} per scan, kept in an in-memory store restored from its changelog and published to the
 * compacted {@code <namespace>.scans} topic. Any number of instances share the work by scan-events partition.
 */
public final class ScanLedger implements AutoCloseable, Health {
    private static final Logger LOG = LoggerFactory.getLogger(ScanLedger.class);
    public static final String STORE = "scans";

    private final KafkaStreams streams;
    private final Path stateDir;
    private final CountDownLatch running = new CountDownLatch(1);
    private final KafkaStreamsMetrics metrics;
    /** Deletes the state folder when the JVM exits before {@link #close} (a second Ctrl-C exits at once). */
    private final Thread cleanUp;

    private ScanLedger(KafkaStreams streams, Path stateDir) {
        this.streams = streams;
        this.stateDir = stateDir;
        this.cleanUp = new Thread(() -> delete(stateDir), "ledger-state-clean-up");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        this.metrics = new KafkaStreamsMetrics(streams); // records processed, lag, commit latency
        metrics.bindTo(Metrics.globalRegistry);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
    }

    /** The topology: scan events in, statuses out. */
    public static Topology topology(KafkaSettings kafka) {
        Serde<ScanEvent> events = RecordSerde.of(ScanEvent.class, kafka);
        Serde<ScanStatus> statuses = RecordSerde.of(ScanStatus.class, kafka);
        StreamsBuilder builder = new StreamsBuilder();
        CommitWhenEnded commits = new CommitWhenEnded();
        builder.stream(kafka.namespace().scanEvents(), Consumed.with(Serdes.String(), events))
                .filter((scanId, event) -> scanId != null && event != null)
                .processValues(commits::requester)
                .groupByKey(Grouped.with(Serdes.String(), events))
                .aggregate(() -> null, (scanId, event, status) -> commits.seen(ScanFold.apply(status, event)),
                        Materialized.<String, ScanStatus>as(Stores.inMemoryKeyValueStore(STORE))
                                .withKeySerde(Serdes.String()).withValueSerde(statuses))
                .toStream()
                .to(kafka.namespace().scans(), Produced.with(Serdes.String(), statuses));
        return builder.build();
    }

    /** Starts a ledger instance; the pipeline's topics must exist. */
    public static ScanLedger start(KafkaSettings kafka) {
        Path stateDir;
        try {
            stateDir = LedgerScratch.create(); // named with this process: a killed one's is swept by the next
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties props = properties(kafka, stateDir);
        if (!props.containsKey(StreamsConfig.REPLICATION_FACTOR_CONFIG)) {
            // Its changelog as durable as the pipeline's topics: a store of one replica stops the ledger for good
            // when that replica's broker is lost.
            short replication = 1; // a broker in this process is the only one: no client to ask
            if (!kafka.inProcess()) {
                try (Admin admin = Admin.create(kafka.admin())) {
                    replication = TopicReplication.of(admin);
                }
            }
            props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replication);
            TopicReplication.durability(replication).forEach((name, value) -> props.put(StreamsConfig.topicPrefix(name), value));
        }
        KafkaStreams streams = new KafkaStreams(topology(kafka), props);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("ledger stream thread failed, replacing it: {}", e.toString());
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        ScanLedger ledger = new ScanLedger(streams, stateDir);
        streams.start();
        return ledger;
    }

    static Properties properties(KafkaSettings kafka, Path stateDir) {
        Properties props = kafka.streams(kafka.namespace().ledger());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        // An unreadable event is parked in the dead-letter topic by Streams, with its reason in headers.
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, kafka.namespace().deadLetters());
        props.put("processing.exception.handler.global.enabled", "true");
        if (kafka.inProcess()) {
            // A local job resumed on its kept broker data waits out the killed run's member: 6 s, not 45.
            props.putIfAbsent(StreamsConfig.consumerPrefix("session.timeout.ms"), "6000");
            props.putIfAbsent(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), "1500");
            // Its close waits for the fetches its consumers have in flight (up to 500 ms each by default), and for
            // its thread's poll to return (up to poll.ms, 100 ms): at the end of every local job.
            props.putIfAbsent(StreamsConfig.mainConsumerPrefix("fetch.max.wait.ms"), "100");
            props.putIfAbsent(StreamsConfig.restoreConsumerPrefix("fetch.max.wait.ms"), "100");
            props.putIfAbsent(StreamsConfig.POLL_MS_CONFIG, "20");
        }
        return props;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Live unless Streams has failed or stopped (a rebalance is still live). */
    @Override
    public boolean live() {
        return streams.state().isRunningOrRebalancing() || streams.state() == KafkaStreams.State.CREATED;
    }

    /** Ready when its tasks are assigned and restored. */
    @Override
    public boolean ready() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** Waits until the instance first runs (its tasks assigned and restored), or the deadline passes. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The scan's status from this instance's store (interactive query), or empty when this instance does not
     * hold the scan's partition or has no record of it. Readers elsewhere use the {@code tablescan.scans} topic.
     */
    public Optional<ScanStatus> status(String scanId) {
        try {
            ReadOnlyKeyValueStore<String, ScanStatus> store = streams.store(
                    StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.<String, ScanStatus>keyValueStore()));
            return Optional.ofNullable(store.get(scanId));
        } catch (InvalidStateStoreException e) {
            return Optional.empty(); // rebalancing or restoring
        }
    }

    /** Stops and leaves the group at once, so another instance takes the partitions over without waiting. */
    @Override
    public void close() {
        metrics.close();
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        try {
            Runtime.getRuntime().removeShutdownHook(cleanUp);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook deletes the folder too, which is harmless
        }
        delete(stateDir);
    }

    private static void delete(Path stateDir) {
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot delete {}", stateDir, e);
        }
    }
}
