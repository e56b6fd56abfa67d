package io.tablescan.runtime;

import java.util.Properties;

/**
 * The properties of each kind of Kafka client the deployment makes, from its common client settings: the
 * defaults tablescan needs (transactions, read_committed, sizes) where the settings leave them open.
 */
final class ClientConfigs {
    /** Static group membership, e.g. KAFKA_GROUP_INSTANCE_ID from the pod name of a StatefulSet. */
    static final String GROUP_INSTANCE_ID = "group.instance.id";

    private final Properties common;

    ClientConfigs(Properties common) {
        this.common = common;
    }

    Properties admin() {
        Properties props = copy();
        props.putIfAbsent("request.timeout.ms", "15000");
        props.putIfAbsent("default.api.timeout.ms", "30000");
        return props;
    }

    /** A transactional producer of raw bytes: values are serialized by the configured serializer. */
    Properties producer(String transactionalId) {
        Properties props = copy();
        props.put("transactional.id", transactionalId);
        props.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        props.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        props.putIfAbsent("linger.ms", "5");
        props.putIfAbsent("batch.size", "262144");
        props.putIfAbsent("compression.type", "lz4");
        props.putIfAbsent("max.request.size", Integer.toString(Topics.MAX_MESSAGE_BYTES));
        props.putIfAbsent("delivery.timeout.ms", "120000");
        // Transactions only span the sends and the commit of finished work, so they are short. A crashed
        // worker's open transaction holds back read_committed consumers until it times out: keep that short.
        props.putIfAbsent("transaction.timeout.ms", "15000");
        return props;
    }

    /** A consumer of raw bytes that sees only committed records and never commits by itself. */
    Properties consumer(String groupId, int maxPollRecords) {
        Properties props = copy();
        props.put("group.id", groupId);
        if (common.containsKey(GROUP_INSTANCE_ID)) { // static membership: only the group's own consumer has it
            props.put(GROUP_INSTANCE_ID, common.getProperty(GROUP_INSTANCE_ID));
        }
        props.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("enable.auto.commit", "false");
        props.put("isolation.level", "read_committed");
        props.putIfAbsent("group.protocol", "consumer"); // KIP-848; set KAFKA_GROUP_PROTOCOL=classic for old brokers
        props.putIfAbsent("auto.offset.reset", "earliest");
        props.putIfAbsent("max.poll.records", Integer.toString(maxPollRecords));
        props.putIfAbsent("max.partition.fetch.bytes", Integer.toString(Topics.MAX_MESSAGE_BYTES));
        // A fetch brings about what the smallest worker's hand holds (not 50 MiB: entity pages are big records);
        // a bigger first record batch still comes whole.
        props.putIfAbsent("fetch.max.bytes", Long.toString(WorkerRuntime.MIN_HAND_BYTES));
        return props;
    }

    /** A Kafka Streams application's settings: the client settings plus its application id. */
    Properties streams(String applicationId) {
        Properties props = copy();
        props.put("application.id", applicationId);
        if (common.containsKey(GROUP_INSTANCE_ID)) { // Streams adds a suffix per stream thread
            props.put(GROUP_INSTANCE_ID, common.getProperty(GROUP_INSTANCE_ID));
        }
        if ("consumer".equalsIgnoreCase(props.getProperty("group.protocol"))) {
            props.remove("group.protocol"); // a plain consumers' protocol; Streams has classic or streams
        }
        props.putIfAbsent("producer.compression.type", "lz4");
        return props;
    }

    /** A read_committed consumer that assigns partitions itself: no group, nothing committed. */
    Properties reader() {
        Properties props = consumer("unused", 500);
        props.remove("group.id");
        props.remove("group.protocol");
        return props;
    }

    /**
     * A {@link #reader} that follows a topic of rare records from start to close, never seeking nor pausing: a
     * fetch of an empty topic waits up to 5 s on the broker instead of half a second (a record ends the wait at once).
     * Each such wait is a request to answer; a copy's three cancel followers asked six times a second.
     */
    Properties follower() {
        Properties props = reader();
        props.put("fetch.max.wait.ms", "5000");
        return props;
    }

    /** The common settings without those only some clients take (their serdes, static membership). */
    private Properties copy() {
        Properties props = new Properties();
        props.putAll(common);
        props.remove("value.serializer");
        props.remove("value.deserializer");
        props.remove(GROUP_INSTANCE_ID);
        return props;
    }
}
