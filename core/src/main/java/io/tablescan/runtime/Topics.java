package io.tablescan.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's topics. Every worker and the tool create them if missing, with the same settings. Their names
 * depend on the deployment's {@link Namespace}.
 */
public final class Topics {
    private static final Logger LOG = LoggerFactory.getLogger(Topics.class);
    /**
     * Partitions of each topic tablescan creates, unless {@link WorkerSettings#TOPIC_PARTITIONS} says otherwise.
     * They cap the useful instances of each worker.
     */
    public static final int DEFAULT_PARTITIONS = 12;
    /** Partitions of each topic of a local run: one process with every worker in it. */
    public static final int LOCAL_PARTITIONS = 6;

    /** Room for an entity batch near the service's 4 MiB transaction limit, with Avro and header overhead. */
    public static final int MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

    private Topics() {}

    /**
     * Creates the topics; returns the names of those whose replication was {@code chosen} here and that a starting
     * cluster refused for having too few brokers yet.
     */
    private static List<String> create(Admin admin, List<NewTopic> topics, List<String> chosen) {
        List<String> refused = new ArrayList<>();
        admin.createTopics(topics).values().forEach((name, future) -> {
            try {
                future.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof InvalidReplicationFactorException && chosen.contains(name)) {
                    refused.add(name);
                } else if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause().getMessage(), e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        });
        return refused;
    }

    private static void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** Every partition of a topic, for a consumer that assigns partitions itself. */
    public static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic) {
        return consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    }

    /**
     * Reads {@code partitions} from their beginning to their committed end as of now: see
     * {@link #readToEnd(Consumer, Predicate)}.
     */
    public static void readFromStart(Consumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
            java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        readToEnd(consumer, record -> {
            each.accept(record);
            return true;
        });
    }

    /**
     * Reads the partitions assigned to {@code consumer}, from their current positions, to their ends as of now (a
     * read_committed consumer's: the end of what is committed), handing each record below its end to {@code each}
     * until it returns false (records written later are left alone).
     *
     * @return the ends read to
     */
    public static Map<TopicPartition, Long> readToEnd(Consumer<byte[], byte[]> consumer,
            Predicate<ConsumerRecord<byte[], byte[]>> each) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
        read(consumer, ends, each);
        return ends;
    }

    /** As {@link #readToEnd(Consumer, Predicate)}, to {@code ends} already known, handing on every record below them. */
    public static void readToEnd(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends,
            java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        read(consumer, ends, record -> {
            each.accept(record);
            return true;
        });
    }

    private static void read(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends,
            Predicate<ConsumerRecord<byte[], byte[]>> each) {
        while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                Long end = ends.get(new TopicPartition(record.topic(), record.partition()));
                if (end != null && record.offset() < end && !each.test(record)) {
                    return;
                }
            }
        }
    }

    /**
     * Creates the missing topics, then waits until every partition answers a offset query: producing right
     * after creation can hit KAFKA-15591 (endless OutOfOrderSequenceException, dropped batches).
     */
    public static void ensure(Admin admin, Namespace namespace, int partitions, Optional<Short> replication,
            Duration deadline) {
        ensure(admin, namespace, name -> partitions, replication, deadline);
    }

    /**
     * As {@link #ensure(Admin, Namespace, int, Optional, Duration)} for a run on a broker in this process: the work
     * items' topics with {@link #LOCAL_PARTITIONS}, the others with one partition each (one scan's events, status
     * and control share a partition by its id anyway; the rest are read whole), each with one replica.
     */
    public static void ensureLocal(Admin admin, Namespace namespace, Duration deadline) {
        createLocal(admin, namespace, deadline);
        awaitAnswering(admin, local(namespace), deadline);
    }

    /**
     * As {@link #ensureLocal} without its wait: the new partitions' logs are still being made (a few milliseconds
     * each), and nothing may produce to them before {@link #awaitAnswering} returns.
     */
    public static void createLocal(Admin admin, Namespace namespace, Duration deadline) {
        List<String> work = List.of(namespace.prefixQueries(), namespace.partitionQueries(), namespace.entityBatches());
        ToIntFunction<String> partitions = name -> work.contains(name) ? LOCAL_PARTITIONS : 1;
        List<NewTopic> topics = new ArrayList<>(topics(namespace, partitions, Optional.of((short) 1)));
        // The ledger's changelog with them (as Kafka Streams would make it: compacted, a partition per partition of
        // the events): made by the ledger's start, its partition could still be missing when the first events
        // come, and the ledger then waited about a second for it.
        topics.add(new NewTopic(namespace.ledgerChangelog(), Optional.of(partitions.applyAsInt(namespace.scanEvents())),
                Optional.of((short) 1)).configs(Map.of("cleanup.policy", "compact")));
        createMissing(admin, topics, deadline);
    }

    /** The topics {@link #createLocal} makes. */
    public static List<String> local(Namespace namespace) {
        List<String> names = new ArrayList<>(namespace.topics());
        names.add(namespace.ledgerChangelog());
        return names;
    }

    private static void ensure(Admin admin, Namespace namespace, ToIntFunction<String> partitions,
            Optional<Short> replication, Duration deadline) {
        ensure(admin, topics(namespace, partitions, replication), deadline);
    }

    private static List<NewTopic> topics(Namespace namespace, ToIntFunction<String> partitions,
            Optional<Short> replication) {
        List<NewTopic> topics = new ArrayList<>();
        for (String name : namespace.topics()) {
            NewTopic topic = new NewTopic(name, Optional.of(partitions.applyAsInt(name)), replication);
            topic.configs(namespace.compacted().contains(name)
                    ? Map.of("cleanup.policy", "compact", "segment.ms", "3600000", "min.cleanable.dirty.ratio", "0.1")
                    : Map.of("max.message.bytes", Integer.toString(MAX_MESSAGE_BYTES)));
            topics.add(topic);
        }
        return topics;
    }

    /**
     * Creates {@code topics} where missing and waits until every partition of them answers (see above). A topic
     * without a replication factor gets {@link TopicReplication#of}. While a starting cluster has fewer brokers than
     * that, creation is retried until {@code deadline}; then such topics are created with the brokers there are.
     */
    public static void ensure(Admin admin, List<NewTopic> topics, Duration deadline) {
        createMissing(admin, topics, deadline);
        awaitAnswering(admin, topics.stream().map(NewTopic::name).toList(), deadline);
    }

    private static void createMissing(Admin admin, List<NewTopic> topics, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        short replication = topics.stream().anyMatch(t -> t.replicationFactor() < 1) ? TopicReplication.of(admin) : 1;
        List<NewTopic> missing = topics;
        while (!missing.isEmpty()) {
            boolean late = System.nanoTime() > end;
            short replicas = late ? TopicReplication.live(admin) : replication;
            if (late) {
                LOG.warn("the Kafka cluster has fewer brokers than {} after {} s: topics created with {} replicas",
                        replication, deadline.toSeconds(), replicas);
            }
            List<String> refused = create(admin, missing.stream().map(t -> TopicReplication.applied(t, replicas)).toList(),
                    missing.stream().filter(t -> t.replicationFactor() < 1).map(NewTopic::name).toList());
            missing = missing.stream().filter(t -> refused.contains(t.name())).toList();
            if (!missing.isEmpty()) {
                pause(); // brokers still registering: the retry comes a moment later
            }
        }
    }

    /** Waits until every partition of topics {@code names} answers an offset query (see above). */
    public static void awaitAnswering(Admin admin, List<String> names, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            try {
                Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames().get();
                Map<TopicPartition, OffsetSpec> request = described.values().stream()
                        .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
                        .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
                admin.listOffsets(request).all().get();
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("topics are not ready: " + e.getCause().getMessage());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }
    }
}
