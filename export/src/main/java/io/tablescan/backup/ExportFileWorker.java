package io.tablescan.backup;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy-worker's share of the exports on its cluster: the partitions of the export topics
 * ({@code <namespace>.export-<scan>}) are shared out by a consumer group ({@code <namespace>-export-files}), which
 * only assigns them (they are never consumed through it); once an export's scan has completed, each partition held
 * here has its files written ({@link ClusterExportFiles}). A worker that dies loses its partitions to the group's
 * other members, which write the same files again; a scan that failed or was cancelled has its topic and claim
 * removed.
 */
public final class ExportFileWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExportFileWorker.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(2);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(15);
    /** Attempts in a row at a partition's files before the export fails (about 75 s); a permanent failure: one. */
    static final int ATTEMPTS = 6;
    /** Partitions written at once: gzip takes a core each, and each holds a Blob block or file buffer. */
    private static final int WRITERS = 2;

    private final KafkaSettings kafka;
    private final Function<String, String> env;
    private final String prefix;
    private final ExecutorService writers = Executors.newFixedThreadPool(WRITERS, r -> {
        Thread t = new Thread(r, "export-files");
        t.setDaemon(true);
        return t;
    });
    /** Partitions done here, or being written: no second task for them. */
    private final Set<TopicPartition> taken = ConcurrentHashMap.newKeySet();
    /** Partitions whose last attempt failed, and when to try again. */
    private final Map<TopicPartition, Long> retryAt = new ConcurrentHashMap<>();
    /** Failed attempts in a row at each partition. */
    private final Map<TopicPartition, Integer> failures = new ConcurrentHashMap<>();
    /** Exports given up here: their topics are being deleted. */
    private final Set<String> givenUp = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean stop;

    private ExportFileWorker(KafkaSettings kafka, Function<String, String> env) {
        this.kafka = kafka;
        this.env = env;
        this.prefix = kafka.namespace().topic("export-");
        this.thread = new Thread(this::run, "export-file-worker");
        thread.setDaemon(true);
    }

    /** Starts following the cluster's exports; {@code env} resolves the Blob account aliases of their targets. */
    public static ExportFileWorker start(KafkaSettings kafka, Function<String, String> env) {
        ExportFileWorker worker = new ExportFileWorker(kafka, env);
        worker.thread.start();
        return worker;
    }

    private void run() {
        Properties props = kafka.consumer(kafka.namespace().group("export-files"), 1);
        props.put("metadata.max.age.ms", "5000"); // a new export's topic is found within seconds
        props.put("auto.offset.reset", "latest");
        try (Consumer<byte[], byte[]> consumer = kafka.clients().consumer(props);
                ScanStatusReader statuses = new ScanStatusReader(kafka)) {
            consumer.subscribe(Pattern.compile(Pattern.quote(prefix) + ".+"), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    consumer.pause(partitions); // assigned only: the files stage reads them on its own
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    taken.removeAll(partitions); // a write in hand finishes; whoever holds them next checks
                }
            });
            long nextCheck = 0;
            while (!stop) {
                consumer.poll(Duration.ofMillis(500));
                if (System.nanoTime() >= nextCheck) {
                    check(consumer, statuses);
                    nextCheck = System.nanoTime() + CHECK_EVERY.toNanos();
                }
            }
        } catch (org.apache.kafka.common.errors.InterruptException e) {
            // closing
        } catch (RuntimeException e) {
            if (!stop) {
                LOG.error("export files stage stopped: {}", e.toString());
            }
        }
    }

    /** Starts the writes the assigned partitions are ready for. */
    private void check(Consumer<byte[], byte[]> consumer, ScanStatusReader statuses) {
        Map<String, List<TopicPartition>> byTopic = consumer.assignment().stream()
                .filter(tp -> !taken.contains(tp) && !givenUp.contains(tp.topic())
                        && retryAt.getOrDefault(tp, 0L) <= System.nanoTime())
                .collect(Collectors.groupingBy(TopicPartition::topic));
        Map<String, Integer> counts = new HashMap<>();
        byTopic.forEach((topic, pending) -> {
            ScanTotals totals = statuses.latest(topic.substring(prefix.length()));
            Optional<ExportTarget> target = totals.started() ? ExportTarget.of(totals.spec()) : Optional.empty();
            if (target.isEmpty() || !totals.ended()) {
                return; // not started yet, still scanning, or not an export on the cluster
            }
            int partitions = counts.computeIfAbsent(topic, t -> consumer.partitionsFor(t).size());
            if (totals.state() == ScanState.COMPLETED) {
                pending.forEach(tp -> submit(tp, store -> ClusterExportFiles.writePartition(kafka, totals,
                        target.get(), store, tp.partition(), partitions), target.get(), totals));
            } else {
                TopicPartition first = pending.getFirst();
                pending.forEach(taken::add);
                submit(first, store -> ClusterExportFiles.abandon(kafka, totals, target.get(), store, partitions),
                        target.get(), totals);
            }
        });
    }

    private void submit(TopicPartition tp, java.util.function.Consumer<BackupStore> task, ExportTarget target,
            ScanTotals totals) {
        taken.add(tp);
        writers.submit(() -> {
            try {
                task.accept(target.open(env));
                retryAt.remove(tp);
                failures.remove(tp);
            } catch (RuntimeException e) {
                boolean permanent = e instanceof BackupException b && (b.kind() == BackupException.Kind.BAD_INPUT
                        || b.kind() == BackupException.Kind.DENIED);
                int failed = failures.merge(tp, 1, Integer::sum);
                if (permanent || failed >= ATTEMPTS) { // never retried silently forever: the export fails
                    givenUp.add(tp.topic());
                    ClusterExportFiles.giveUp(kafka, totals, "a copy-worker cannot write the files to "
                            + target.describe() + " (" + e.getMessage() + ")");
                    return;
                }
                LOG.warn("export files of {} failed (attempt {} of {}), trying again in {} s: {}", tp, failed, ATTEMPTS,
                        RETRY_AFTER.toSeconds(), e.getMessage());
                retryAt.put(tp, System.nanoTime() + RETRY_AFTER.toNanos());
                taken.remove(tp);
            }
        });
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writers.shutdownNow();
    }
}
