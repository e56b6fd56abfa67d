package io.tablescan.backup;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy-worker's share of the imports on its cluster: the file records of the import topics
 * ({@code <namespace>.import-<scan>}), consumed in a group ({@code <namespace>-import-files}). Each file's batches go to
 * the entity-batches topic in one transaction with the record's offset: a worker killed mid-file sends nothing of
 * it, and whoever takes the record next sends it whole. Records of a scan that ended are skipped, and that scan's
 * topic is deleted.
 */
public final class ImportFileWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ImportFileWorker.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(15);
    private static final Duration TIDY_EVERY = Duration.ofSeconds(10);

    private final KafkaSettings kafka;
    private final Function<String, String> env;
    private final String prefix;
    private final Thread thread;
    private volatile boolean stop;

    private ImportFileWorker(KafkaSettings kafka, Function<String, String> env) {
        this.kafka = kafka;
        this.env = env;
        this.prefix = kafka.namespace().topic("import-");
        this.thread = new Thread(this::run, "import-file-worker");
        thread.setDaemon(true);
    }

    /** Starts taking the cluster's import files; {@code env} resolves the Blob account aliases of the exports. */
    public static ImportFileWorker start(KafkaSettings kafka, Function<String, String> env) {
        ImportFileWorker worker = new ImportFileWorker(kafka, env);
        worker.thread.start();
        return worker;
    }

    private void run() {
        Properties props = kafka.consumer(kafka.namespace().group("import-files"), 1);
        props.put("metadata.max.age.ms", "5000"); // a new import's topic is found within seconds
        props.put("max.poll.interval.ms", "900000"); // one file's batches, sent between two polls
        Map<TopicPartition, Long> retryAt = new HashMap<>();
        Producer<byte[], byte[]> producer = null;
        try (Consumer<byte[], byte[]> consumer = kafka.clients().consumer(props);
                ScanStatusReader statuses = new ScanStatusReader(kafka)) {
            consumer.subscribe(Pattern.compile(Pattern.quote(prefix) + ".+"));
            long nextTidy = System.nanoTime() + TIDY_EVERY.toNanos();
            while (!stop) {
                resumeDue(consumer, retryAt);
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (producer == null) {
                        producer = kafka.newProducer(kafka.namespace().group("import-files-" + UUID.randomUUID()));
                        producer.initTransactions();
                    }
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    try {
                        handle(producer, consumer, statuses, record);
                    } catch (RuntimeException e) {
                        if (e instanceof NotYet) {
                            LOG.debug("import file {}: {}", tp, e.getMessage());
                        } else {
                            LOG.warn("import file {} not sent, trying again in {} s: {}", tp, RETRY_AFTER.toSeconds(),
                                    e.getMessage());
                            producer = abort(producer);
                        }
                        consumer.seek(tp, record.offset());
                        consumer.pause(Set.of(tp));
                        retryAt.put(tp, System.nanoTime() + RETRY_AFTER.toNanos());
                        break;
                    }
                }
                if (System.nanoTime() >= nextTidy) {
                    tidy(consumer, statuses);
                    nextTidy = System.nanoTime() + TIDY_EVERY.toNanos();
                }
            }
        } catch (org.apache.kafka.common.errors.InterruptException e) {
            // closing
        } catch (RuntimeException e) {
            if (!stop) {
                LOG.error("import files stage stopped: {}", e.toString());
            }
        } finally {
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
        }
    }

    /** Sends the file's batches and the record's offset in one transaction (or only the offset, for an ended scan). */
    private void handle(Producer<byte[], byte[]> producer, Consumer<byte[], byte[]> consumer, ScanStatusReader statuses,
            ConsumerRecord<byte[], byte[]> record) {
        ClusterImportFiles.FileItem item = ClusterImportFiles.FileItem.parse(record.value()).orElse(null);
        ScanTotals totals = item == null ? null : statuses.latest(item.scanId());
        if (totals != null && !totals.started()) {
            throw new NotYet("the ledger has not recorded scan " + item.scanId() + " yet");
        }
        producer.beginTransaction();
        if (item == null) {
            LOG.error("skipping an unreadable import record at {}-{}@{}", record.topic(), record.partition(),
                    record.offset());
        } else if (!totals.ended()) {
            long started = System.nanoTime();
            long batches = ClusterImportFiles.send(producer, kafka, totals.spec(), item.open(env), item.file());
            LOG.info("import {}: {} sent, {} rows in {} batches, {} ms", item.scanId(), item.file().name(),
                    item.file().rows(), batches, (System.nanoTime() - started) / 1_000_000);
        }
        producer.sendOffsetsToTransaction(Map.of(new TopicPartition(record.topic(), record.partition()),
                new OffsetAndMetadata(record.offset() + 1)), consumer.groupMetadata());
        producer.commitTransaction();
    }

    private Producer<byte[], byte[]> abort(Producer<byte[], byte[]> producer) {
        try {
            producer.abortTransaction();
            return producer;
        } catch (KafkaException | IllegalStateException e) { // fenced, or no transaction open: start afresh
            producer.close(Duration.ofSeconds(5));
            return null;
        }
    }

    private static void resumeDue(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> retryAt) {
        long now = System.nanoTime();
        List<TopicPartition> due = new java.util.ArrayList<>(retryAt.entrySet().stream()
                .filter(e -> e.getValue() <= now).map(Map.Entry::getKey).toList());
        due.forEach(retryAt::remove);
        due.retainAll(consumer.assignment());
        consumer.resume(due);
    }

    /** Deletes the topics of imports that ended: their records are all sent or no longer wanted. */
    private void tidy(Consumer<byte[], byte[]> consumer, ScanStatusReader statuses) {
        Set<String> topics = consumer.assignment().stream().map(TopicPartition::topic).collect(Collectors.toSet());
        List<String> ended = topics.stream().filter(t -> statuses.latest(t.substring(prefix.length())).ended()).toList();
        if (ended.isEmpty()) {
            return;
        }
        try (Admin admin = kafka.newAdmin()) {
            admin.deleteTopics(ended).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("could not delete ended imports' topics {}: {}", ended, e.toString());
        }
    }

    /** A record whose scan the ledger has not recorded yet: taken again later, with no transaction begun. */
    private static final class NotYet extends RuntimeException {
        NotYet(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
