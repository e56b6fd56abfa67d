package io.tablescan.runtime;

import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka client settings. Every environment variable {@code KAFKA_<NAME>} becomes the client property
 * {@code <name>} with underscores as dots ({@code KAFKA_SECURITY_PROTOCOL=SASL_SSL} sets
 * {@code security.protocol}), so TLS, SASL and any other client setting pass through unchanged. The
 * {@link Namespace} ({@code TABLESCAN_NAMESPACE}) names this deployment's topics, groups and transactional ids
 * on the cluster, so every client of the deployment gets both from here. The clients themselves are made here too
 * ({@link #newConsumer}, {@link #newReader}, {@link #newProducer}, {@link #newAdmin}), by {@link KafkaClients}: Kafka's
 * own unless {@link #withClients} substitutes others.
 */
public final class KafkaSettings {
    /** Conventional variables of Kafka's own scripts, not client settings. */
    private static final Set<String> NOT_CLIENT_SETTINGS =
            Set.of("KAFKA_HEAP_OPTS", "KAFKA_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_LOG4J_OPTS", "KAFKA_DEBUG");

    /** Static group membership, e.g. KAFKA_GROUP_INSTANCE_ID from the pod name of a StatefulSet. */
    static final String GROUP_INSTANCE_ID = "group.instance.id";

    private final Properties common;
    private final Namespace namespace;
    private final KafkaClients clients;
    /** A broker in this process, whose data ends with the command (see {@link #inProcess(String)}). */
    private final boolean inProcess;

    private KafkaSettings(Properties common, Namespace namespace, KafkaClients clients) {
        this(common, namespace, clients, false);
    }

    private KafkaSettings(Properties common, Namespace namespace, KafkaClients clients, boolean inProcess) {
        this.common = common;
        this.namespace = namespace;
        this.clients = clients;
        this.inProcess = inProcess;
    }

    /** True for an environment variable that becomes a Kafka client setting. */
    public static boolean isClientSetting(String name) {
        return name.startsWith("KAFKA_") && name.length() > 6 && !NOT_CLIENT_SETTINGS.contains(name);
    }

    public static KafkaSettings fromEnvironment(Map<String, String> env) {
        Properties props = new Properties();
        env.forEach((name, value) -> {
            if (isClientSetting(name)) {
                props.put(name.substring(6).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        // Blank is unset: a compose file's "KAFKA_BOOTSTRAP_SERVERS=" would otherwise fail later, less clearly.
        if (props.getProperty("bootstrap.servers", "").isBlank()) {
            throw new IllegalArgumentException("KAFKA_BOOTSTRAP_SERVERS is not set");
        }
        return new KafkaSettings(props, Namespace.fromEnvironment(env), KafkaClients.KAFKA);
    }

    /** The {@code KAFKA_*} settings and namespace of {@code env} (TLS, SASL, ...) with the given bootstrap servers. */
    public static KafkaSettings of(String bootstrapServers, Map<String, String> env) {
        Map<String, String> merged = new java.util.HashMap<>(env);
        merged.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        return fromEnvironment(merged);
    }

    public static KafkaSettings of(String bootstrapServers) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrapServers);
        return new KafkaSettings(props, Namespace.DEFAULT, KafkaClients.KAFKA);
    }

    /**
     * The settings for a broker in this process, whose data ends with the command: workers' consumers close at
     * once, without leaving their groups or waiting for the fetch they have in flight (up to fetch.max.wait.ms,
     * half a second a client each time a small copy stops), as nobody takes their partitions over.
     */
    public static KafkaSettings inProcess(String bootstrapServers) {
        return of(bootstrapServers).withInProcess();
    }

    /** The same cluster and client settings, with the names of another deployment. */
    public KafkaSettings withNamespace(Namespace other) {
        Properties props = new Properties();
        props.putAll(common);
        return new KafkaSettings(props, other, clients, inProcess);
    }

    /** The same settings, with clients made by {@code other} (a test's, say). */
    public KafkaSettings withClients(KafkaClients other) {
        Properties props = new Properties();
        props.putAll(common);
        return new KafkaSettings(props, namespace, other, inProcess);
    }

    /** The same settings, for a broker in this process (see {@link #inProcess(String)}). */
    public KafkaSettings withInProcess() {
        Properties props = new Properties();
        props.putAll(common);
        return new KafkaSettings(props, namespace, clients, true);
    }

    /** Whether the broker runs in this process and its data ends with the command. */
    public boolean inProcess() {
        return inProcess;
    }

    /** What makes this deployment's Kafka clients, for a client with settings of its own. */
    public KafkaClients clients() {
        return clients;
    }

    /** A new consumer of the group, with {@link #consumer}'s settings. */
    public Consumer<byte[], byte[]> newConsumer(String groupId, int maxPollRecords) {
        return clients.consumer(consumer(groupId, maxPollRecords));
    }

    /** A new consumer with {@link #reader}'s settings. */
    public Consumer<byte[], byte[]> newReader() {
        return clients.consumer(reader());
    }

    /** A new transactional producer with {@link #producer}'s settings. */
    public Producer<byte[], byte[]> newProducer(String transactionalId) {
        return clients.producer(producer(transactionalId));
    }

    /** A new admin client with {@link #admin}'s settings. */
    public Admin newAdmin() {
        return clients.admin(admin());
    }

    public Namespace namespace() {
        return namespace;
    }

    public String bootstrapServers() {
        return common.getProperty("bootstrap.servers");
    }

    public Properties admin() {
        Properties props = copy();
        props.putIfAbsent("request.timeout.ms", "15000");
        props.putIfAbsent("default.api.timeout.ms", "30000");
        return props;
    }

    /** A transactional producer of raw bytes: values are serialized by the configured serializer. */
    public Properties producer(String transactionalId) {
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
    public Properties consumer(String groupId, int maxPollRecords) {
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
    public Properties streams(String applicationId) {
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
    public Properties reader() {
        Properties props = consumer("unused", 500);
        props.remove("group.id");
        props.remove("group.protocol");
        return props;
    }

    /** The serializer named by {@code value.serializer} (Confluent's, with a registry), else Avro single-object. */
    @SuppressWarnings("unchecked")
    public Serializer<SpecificRecord> valueSerializer() {
        Serializer<SpecificRecord> serializer = common.containsKey("value.serializer")
                ? instance("value.serializer", Serializer.class) : new AvroSingleObjectSerializer();
        serializer.configure(configs(), false);
        return serializer;
    }

    /** The deserializer named by {@code value.deserializer}, else Avro single-object. */
    @SuppressWarnings("unchecked")
    public Deserializer<SpecificRecord> valueDeserializer() {
        Deserializer<SpecificRecord> deserializer = common.containsKey("value.deserializer")
                ? instance("value.deserializer", Deserializer.class) : new AvroSingleObjectDeserializer();
        deserializer.configure(configs(), false);
        return deserializer;
    }

    private <T> T instance(String key, Class<T> type) {
        String className = common.getProperty(key);
        try {
            return type.cast(Class.forName(className).getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException(key + ": cannot create " + className + " (is its jar on the class path?)");
        }
    }

    private Map<String, Object> configs() {
        Map<String, Object> configs = new java.util.HashMap<>();
        common.forEach((k, v) -> configs.put(k.toString(), v));
        configs.putIfAbsent("specific.avro.reader", "true");
        return configs;
    }

    private Properties copy() {
        Properties props = new Properties();
        props.putAll(common);
        props.remove("value.serializer");
        props.remove("value.deserializer");
        props.remove(GROUP_INSTANCE_ID);
        return props;
    }
}
