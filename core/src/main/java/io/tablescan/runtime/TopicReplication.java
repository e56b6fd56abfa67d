package io.tablescan.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * How many replicas the topics tablescan creates get (its own, the ledger's changelog, an output topic, an export's),
 * and the settings that go with them: a topic of one replica on a cluster of three stops the scan for good when that
 * replica's broker is lost.
 */
public final class TopicReplication {
    private TopicReplication() {}

    /**
     * {@code TABLESCAN_TOPIC_REPLICATION} when set, else the cluster's size up to 3: the brokers it has registered,
     * fenced ones too (a broker that is restarting still counts), or its controller voters where those are more (a
     * cluster started all at once, whose brokers are still registering: its nodes are brokers and voters both).
     */
    public static short of(Admin admin) {
        return WorkerSettings.topicReplication(System.getenv()).orElseGet(() -> cluster(admin));
    }

    static short cluster(Admin admin) {
        int brokers = get(admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true)).nodes()).size();
        int voters;
        try {
            voters = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).voters().size();
        } catch (ExecutionException | TimeoutException e) {
            voters = 0; // not told: the brokers alone decide
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        return (short) Math.max(1, Math.min(3, Math.max(brokers, voters)));
    }

    /** The brokers serving now, up to 3: what a topic can be created with at once. */
    static short live(Admin admin) {
        return (short) Math.max(1, Math.min(3, get(admin.describeCluster().nodes()).size()));
    }

    /** {@code min.insync.replicas} 2 for a topic of 3 replicas or more, unless it sets its own. */
    public static Map<String, String> durability(short replication) {
        return replication >= 3 ? Map.of("min.insync.replicas", "2") : Map.of();
    }

    /** The topic with {@code replication} replicas where it has none set, and the settings that go with them. */
    static NewTopic applied(NewTopic topic, short replication) {
        short replicas = topic.replicationFactor() >= 1 ? topic.replicationFactor() : replication;
        Map<String, String> configs = new HashMap<>(durability(replicas));
        if (topic.configs() != null) {
            configs.putAll(topic.configs());
        }
        return new NewTopic(topic.name(), Optional.of(topic.numPartitions()), Optional.of(replicas)).configs(configs);
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe the Kafka cluster: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
