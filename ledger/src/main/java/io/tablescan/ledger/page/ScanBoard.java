package io.tablescan.ledger.page;

import io.tablescan.rate.Direction;
import io.tablescan.rate.ScanRates;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanControl;
import io.tablescan.schema.ScanStatus;
import io.tablescan.status.ScanFold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the status page shows: every scan of the namespace as the ledger published it to {@code <namespace>.scans},
 * with its caps as throttle records on scan-control changed them, and its progress over time. One thread follows
 * both topics from their start, so the page answers from memory however many people have it open; a scan's history
 * starts with what the topics still hold (compaction keeps a scan's latest status) and grows while this runs.
 */
public final class ScanBoard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScanBoard.class);
    /** Points kept per running scan: when full, every other one goes, so a long scan keeps its whole shape. */
    static final int POINTS = 400;
    /** Points kept once a scan has ended: enough for its chart, little for a ledger that has seen thousands. */
    static final int ENDED_POINTS = 100;
    /** How often it asks Kafka for the topics' ends, to know it is still reading them. */
    private static final long CHECK_MILLIS = 10_000;

    /** One scan: its latest status, its caps now (rows/s, 0 none), and (millis, rows done) over time. */
    public record Scan(ScanStatus status, long readCap, long writeCap, List<long[]> points) {}

    private final Map<String, ScanStatus> statuses = new ConcurrentHashMap<>();
    private final Map<String, long[]> throttles = new ConcurrentHashMap<>(); // scan -> {read, write}, -1 unchanged
    private final Map<String, List<long[]>> series = new ConcurrentHashMap<>();
    private final KafkaSettings kafka;
    private final Consumer<byte[], byte[]> consumer;
    private final Thread thread;
    private volatile boolean caughtUp;
    private volatile boolean closed;
    private volatile String problem;

    /** A board fed by {@link #apply} alone (the tests' and the page benchmark's). */
    public ScanBoard() {
        this.kafka = null;
        this.consumer = null;
        this.thread = null;
        this.caughtUp = true;
    }

    private ScanBoard(KafkaSettings kafka) {
        this.kafka = kafka;
        this.consumer = kafka.newReader();
        this.thread = Thread.ofPlatform().daemon().name("status-page-board").unstarted(this::follow);
    }

    /** Starts following the namespace's scans and scan-control topics. */
    public static ScanBoard follow(KafkaSettings kafka) {
        ScanBoard board = new ScanBoard(kafka);
        board.thread.start();
        return board;
    }

    /** Whether it has read both topics up to where they were when it started (before, the page says "loading"). */
    public boolean caughtUp() {
        return caughtUp;
    }

    /** Every scan, most recently started first, without their points (the list needs none). */
    public List<Scan> scans() {
        List<Scan> all = new ArrayList<>();
        for (String id : statuses.keySet()) {
            scan(id, false).ifPresent(all::add);
        }
        all.sort(Comparator.comparingLong((Scan s) -> s.status().getStartMillis()).reversed());
        return all;
    }

    /** One scan with its progress points. */
    public Optional<Scan> scan(String scanId) {
        return scan(scanId, true);
    }

    private Optional<Scan> scan(String scanId, boolean withPoints) {
        ScanStatus status = statuses.get(scanId);
        if (status == null || status.getSpec() == null) {
            return Optional.empty();
        }
        long[] throttle = throttles.getOrDefault(scanId, new long[] {-1, -1});
        long read = throttle[0] >= 0 ? throttle[0] : ScanRates.cap(status.getSpec(), Direction.READ);
        long write = throttle[1] >= 0 ? throttle[1] : ScanRates.cap(status.getSpec(), Direction.WRITE);
        if (!withPoints) {
            return Optional.of(new Scan(status, read, write, List.of()));
        }
        List<long[]> points = series.getOrDefault(scanId, List.of());
        synchronized (points) {
            return Optional.of(new Scan(status, read, write, List.copyOf(points)));
        }
    }

    /** Why it is not following the topics now (Kafka unreachable, say), or empty while it is. */
    public Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    /** Takes a scan's status in; its progress point is its latest event's time and its rows done then. */
    public void apply(ScanStatus status) {
        statuses.put(status.getScanId(), status);
        List<long[]> points = series.computeIfAbsent(status.getScanId(), id -> new ArrayList<>());
        long[] point = {status.getLastEventMillis(), ScanFold.rowsCopied(status)};
        synchronized (points) {
            if (!points.isEmpty() && points.get(points.size() - 1)[0] > point[0]) {
                return; // a time before the last point's (the workers' clocks differ a little) adds no point
            }
            points.add(point);
            int most = status.getState() == io.tablescan.schema.ScanState.RUNNING ? POINTS : ENDED_POINTS;
            while (points.size() > most) {
                for (int i = points.size() - 2; i > 0; i -= 2) { // every other point, the first and last kept
                    points.remove(i);
                }
            }
        }
    }

    /** Takes a throttle record in (a cancel needs nothing here: the ledger's status says it). */
    public void apply(ScanControl control) {
        if (control.getThrottle()) {
            throttles.compute(control.getScanId(), (id, caps) -> {
                long[] now = caps == null ? new long[] {-1, -1} : caps.clone();
                if (control.getMaxRate() != null) {
                    now[0] = control.getMaxRate();
                }
                if (control.getMaxWriteRate() != null) {
                    now[1] = control.getMaxWriteRate();
                }
                return now;
            });
        }
    }

    /** Follows the topics until closed; after a failure (Kafka unreachable) it starts again from their start. */
    private void follow() {
        try {
            while (!closed) {
                try {
                    followOnce();
                } catch (WakeupException | org.apache.kafka.common.errors.InterruptException e) {
                    return;
                } catch (RuntimeException e) {
                    problem = "cannot read the scans from Kafka (" + e.getClass().getSimpleName() + "); trying again";
                    LOG.warn("status page: {}: {}", problem, e.toString());
                    Thread.sleep(5_000); // then again: nothing to wait on for Kafka to come back
                }
            }
        } catch (InterruptedException e) {
            // closing
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    private void followOnce() throws InterruptedException {
        Deserializer<SpecificRecord> values = kafka.valueDeserializer();
        List<TopicPartition> partitions = List.of();
        while (partitions.isEmpty()) { // a ledger started before any worker made the topics
            List<TopicPartition> scans = Topics.partitions(consumer, kafka.namespace().scans());
            List<TopicPartition> control = Topics.partitions(consumer, kafka.namespace().scanControl());
            if (!scans.isEmpty() && !control.isEmpty()) {
                partitions = new ArrayList<>(scans);
                partitions.addAll(control);
            } else {
                Thread.sleep(1_000); // polling for topics to appear: nothing to wait on instead
            }
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions); // statuses are whole: read again, each replaces the one before
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        long nextCheck = System.currentTimeMillis() + CHECK_MILLIS;
        problem = null;
        while (!closed) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                if (record.value() == null) {
                    continue;
                }
                try {
                    switch (values.deserialize(record.topic(), record.value())) {
                        case ScanStatus status -> apply(status);
                        case ScanControl control -> apply(control);
                        default -> { }
                    }
                } catch (RuntimeException e) {
                    LOG.debug("status page: a record it cannot read in {}", record.topic(), e);
                }
            }
            if (!caughtUp && ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                caughtUp = true;
            }
            if (System.currentTimeMillis() >= nextCheck) { // a poll returns nothing, not an error, while Kafka is away
                try {
                    consumer.endOffsets(partitions, Duration.ofSeconds(5));
                    problem = null;
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    if (problem == null) {
                        problem = "cannot reach Kafka since " + java.time.LocalTime.now().withNano(0)
                                + ": what is shown may be out of date";
                        LOG.warn("status page: {}", problem);
                    }
                }
                nextCheck = System.currentTimeMillis() + CHECK_MILLIS;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null) {
            consumer.wakeup();
            thread.interrupt(); // waiting for the topics
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
