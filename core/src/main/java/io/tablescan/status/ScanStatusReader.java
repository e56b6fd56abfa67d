package io.tablescan.status;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads the ledger's compacted {@code tablescan.scans} topic: one scan's latest status, every scan's, or
 * one scan's statuses as they come until a condition holds. Needs a running ledger to see anything new.
 */
public final class ScanStatusReader implements AutoCloseable {
    /** How far before the time in a scan id its events can start: the id holds local time, zones reach UTC+14. */
    private static final Duration ZONES = Duration.ofHours(15);
    private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
    private final Deserializer<SpecificRecord> deserializer;
    private final String scans;
    private final String events;
    private final String namespace;
    private final KafkaSettings kafka;

    public ScanStatusReader(KafkaSettings kafka) {
        this.kafka = kafka;
        this.namespace = kafka.namespace().name();
        this.consumer = kafka.newReader();
        this.deserializer = kafka.valueDeserializer();
        this.scans = kafka.namespace().scans();
        this.events = kafka.namespace().scanEvents();
    }

    /**
     * Whether the scan's events topic holds an event of the scan (its start is the first): a scan a ledger that is
     * starting or catching up has not recorded yet. Reads the one partition the scan's key goes to, from 15 hours
     * before the time in its id (local time of the machine that started it: any zone, up to UTC+14), or from the
     * start; it stops at the first event of the scan.
     */
    public boolean hasEvents(String scanId) {
        byte[] key = scanId.getBytes(StandardCharsets.UTF_8);
        TopicPartition partition = partitionOf(events, scanId);
        if (partition == null) {
            return false;
        }
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        Instant started = timeIn(scanId);
        if (started != null) {
            var found = consumer.offsetsForTimes(Map.of(partition, started.minus(ZONES).toEpochMilli())).get(partition);
            if (found == null) {
                return false; // no event at all since then
            }
            consumer.seek(partition, found.offset());
        }
        boolean[] found = {false};
        Topics.readToEnd(consumer, record -> {
            found[0] = record.key() != null && Arrays.equals(key, record.key());
            return !found[0]; // stops at the scan's first event
        });
        return found[0];
    }

    /** The scan's latest status, or a view with no status when the ledger has no record of it. */
    public ScanTotals latest(String scanId) {
        Map<String, ScanStatus> statuses = readToEnd(List.of(partitionOf(scanId)));
        return new ScanTotals(scanId, statuses.get(scanId));
    }

    /** Every scan the ledger knows, most recently started first. */
    public List<ScanTotals> all() {
        List<TopicPartition> partitions = Topics.partitions(consumer, scans);
        List<ScanTotals> scans = new ArrayList<>();
        readToEnd(partitions).forEach((id, status) -> scans.add(new ScanTotals(id, status)));
        scans.sort(Comparator.comparingLong((ScanTotals t) -> t.status().getStartMillis()).reversed());
        return scans;
    }

    /**
     * Follows the scan's status until {@code until} holds or {@code timeout} passes, calling {@code progress}
     * at most every {@code interval}. Returns the latest status seen.
     */
    public ScanTotals await(String scanId, Predicate<ScanTotals> until, Duration timeout, Duration interval,
            Consumer<ScanTotals> progress) {
        ScanTotals latest = latest(scanId); // also leaves the consumer assigned at the end of the partition
        Instant end = Instant.now().plus(timeout);
        Instant nextReport = Instant.now();
        while (!until.test(latest) && Instant.now().isBefore(end)) {
            if (progress != null && !Instant.now().isBefore(nextReport)) {
                progress.accept(latest);
                nextReport = Instant.now().plus(interval);
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                ScanStatus status = decode(record, scanId);
                if (status != null) {
                    latest = new ScanTotals(scanId, status);
                }
            }
        }
        return latest;
    }

    /**
     * The other namespaces on this cluster whose ledger has recorded scans (a topic of scans that is not empty), sorted
     * (private copies' left out: they end with their command): where a mistyped {@code TABLESCAN_NAMESPACE} should
     * have pointed. An empty topic names no namespace: status would find no scan there either.
     */
    public List<String> otherNamespaces() {
        String suffix = ".scans";
        List<String> topics = consumer.listTopics(Duration.ofSeconds(10)).keySet().stream()
                .filter(topic -> topic.endsWith(suffix))
                .filter(topic -> {
                    String name = topic.substring(0, topic.length() - suffix.length());
                    return !name.equals(namespace) && !name.contains("-copy-");
                }).toList();
        if (topics.isEmpty()) {
            return List.of();
        }
        try (org.apache.kafka.clients.admin.Admin admin = kafka.newAdmin()) {
            var partitions = admin.describeTopics(topics).allTopicNames().get(10, java.util.concurrent.TimeUnit.SECONDS);
            java.util.Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> earliest = new java.util.HashMap<>();
            java.util.Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new java.util.HashMap<>();
            partitions.forEach((topic, description) -> description.partitions().forEach(p -> {
                earliest.put(new TopicPartition(topic, p.partition()), org.apache.kafka.clients.admin.OffsetSpec.earliest());
                latest.put(new TopicPartition(topic, p.partition()), org.apache.kafka.clients.admin.OffsetSpec.latest());
            }));
            var starts = admin.listOffsets(earliest).all().get(10, java.util.concurrent.TimeUnit.SECONDS);
            var ends = admin.listOffsets(latest).all().get(10, java.util.concurrent.TimeUnit.SECONDS);
            return topics.stream()
                    .filter(topic -> ends.entrySet().stream().anyMatch(e -> e.getKey().topic().equals(topic)
                            && e.getValue().offset() > starts.get(e.getKey()).offset()))
                    .map(topic -> topic.substring(0, topic.length() - suffix.length()))
                    .sorted().toList();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return List.of(); // a hint only: without an answer, none
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** The time a scan id {@code scan-yyyyMMdd-HHmmss-xxxx} holds, read as UTC; null for another shape. */
    static Instant timeIn(String scanId) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("scan-(\\d{8}-\\d{6})-.*").matcher(scanId);
        if (!m.matches()) {
            return null;
        }
        try {
            return java.time.LocalDateTime.parse(m.group(1), java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                    .toInstant(java.time.ZoneOffset.UTC);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private TopicPartition partitionOf(String scanId) {
        TopicPartition partition = partitionOf(scans, scanId);
        if (partition == null) {
            throw new NoLedgerTopicException("topic " + scans + " does not exist");
        }
        return partition;
    }

    /** The partition of {@code topic} the scan's records go to (keyed by scan id, the default partitioner); null without the topic. */
    private TopicPartition partitionOf(String topic, String scanId) {
        return partitionOf(consumer, topic, scanId);
    }

    /**
     * The partition of {@code topic} that records keyed by {@code scanId} go to (the default partitioner, as the
     * workers' and the ledger's producers key them), as {@code consumer} sees the topic; null without the topic.
     */
    public static TopicPartition partitionOf(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer, String topic,
            String scanId) {
        int partitions = Topics.partitions(consumer, topic).size();
        return partitions == 0 ? null : new TopicPartition(topic,
                Utils.toPositive(Utils.murmur2(scanId.getBytes(StandardCharsets.UTF_8))) % partitions);
    }

    private Map<String, ScanStatus> readToEnd(List<TopicPartition> partitions) {
        Map<String, ScanStatus> latest = new LinkedHashMap<>();
        Topics.readFromStart(consumer, partitions, record -> {
            ScanStatus status = decode(record, null);
            if (status != null) {
                latest.put(status.getScanId(), status);
            }
        });
        return latest;
    }

    private ScanStatus decode(ConsumerRecord<byte[], byte[]> record, String onlyScanId) {
        if (record.value() == null || record.key() == null
                || onlyScanId != null && !onlyScanId.equals(new String(record.key(), StandardCharsets.UTF_8))) {
            return null;
        }
        return deserializer.deserialize(record.topic(), record.value()) instanceof ScanStatus s ? s : null;
    }

    /** The ledger's topic does not exist: no scan was ever started on this cluster (or a wrong cluster). */
    public static final class NoLedgerTopicException extends IllegalStateException {
        NoLedgerTopicException(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ZERO); // no group to leave, nothing to commit: no wait for the fetch in flight
    }
}
