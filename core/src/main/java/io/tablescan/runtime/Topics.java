package io.tablescan.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The pipeline's topics. Every worker and the tool create them if missing, with the same settings. Their names
 * depend on the deployment's {@link Namespace}.
 */
public final class Topics {
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

    /** Every partition of a topic, for a consumer that assigns partitions itself. */
    public static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic) {
        return consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    }

    /**
     * Polls the assigned partitions from their current positions until each reaches its offset in
     * {@code ends}, handing every polled record to {@code each} (the last poll may go past an end).
     */
    public static void readToEnd(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends,
            java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
            consumer.poll(Duration.ofMillis(200)).forEach(each);
        }
    }

    /**
     * The replication of the topics tablescan creates when {@code TABLESCAN_TOPIC_REPLICATION} does not set it: one
     * replica a broker the cluster has now, up to 3 (a single broker: 1).
     */
    public static short replication(Admin admin) {
        try {
            int brokers = admin.describeCluster().nodes().get(60, TimeUnit.SECONDS).size();
            return (short) Math.max(1, Math.min(3, brokers));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe the Kafka cluster: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** {@code min.insync.replicas} 2 for a topic of 3 replicas or more, unless it sets its own. */
    public static Map<String, String> durability(short replication) {
        return replication >= 3 ? Map.of("min.insync.replicas", "2") : Map.of();
    }

    private static NewTopic durable(NewTopic topic, short replication) {
        Map<String, String> configs = new HashMap<>(durability(replication));
        if (topic.configs() != null) {
            configs.putAll(topic.configs());
        }
        return topic.configs(configs);
    }

    /**
     * Creates the missing topics, then waits until every partition answers a offset query: producing right
     * after creation can hit KAFKA-15591 (endless OutOfOrderSequenceException, dropped batches).
     */
    public static void ensure(Admin admin, Namespace namespace, int partitions, Optional<Short> replication,
            Duration deadline) {
        List<NewTopic> topics = new ArrayList<>();
        for (String name : namespace.topics()) {
            NewTopic topic = new NewTopic(name, Optional.of(partitions), replication);
            topic.configs(namespace.compacted().contains(name)
                    ? Map.of("cleanup.policy", "compact", "segment.ms", "3600000", "min.cleanable.dirty.ratio", "0.1")
                    : Map.of("max.message.bytes", Integer.toString(MAX_MESSAGE_BYTES)));
            topics.add(topic);
        }
        ensure(admin, topics, deadline);
    }

    /**
     * Creates {@code topics} where missing and waits until every partition of them answers (see above). A topic
     * without a replication factor gets the cluster's ({@link #replication(Admin)}), with {@code min.insync.replicas}
     * 2 where it has 3 replicas or more, unless its configs say otherwise: a topic of one replica on a cluster of
     * three would stop the scan for good when its broker is lost.
     */
    public static void ensure(Admin admin, List<NewTopic> topics, Duration deadline) {
        List<String> names = topics.stream().map(NewTopic::name).toList();
        short replication = topics.stream().anyMatch(t -> t.replicationFactor() < 1) ? replication(admin) : 1;
        topics = topics.stream().map(t -> t.replicationFactor() >= 1 ? durable(t, t.replicationFactor())
                : durable(new NewTopic(t.name(), Optional.of(t.numPartitions()), Optional.of(replication))
                        .configs(t.configs() == null ? Map.of() : t.configs()), replication)).toList();
        admin.createTopics(topics).values().forEach((name, future) -> {
            try {
                future.get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause().getMessage(), e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        });
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
