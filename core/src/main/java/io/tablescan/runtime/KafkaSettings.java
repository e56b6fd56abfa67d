package io.tablescan.runtime;

import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka client settings: every environment variable {@code KAFKA_<NAME>} is a client property (see
 * {@link KafkaEnvironment}), each kind of client gets them with tablescan's defaults ({@link ClientConfigs}), and
 * the records' serdes are named by them ({@link ValueSerdes}). The
 * {@link Namespace} ({@code TABLESCAN_NAMESPACE}) names this deployment's topics, groups and transactional ids
 * on the cluster, so every client of the deployment gets both from here. The clients themselves are made here too
 * ({@link #newConsumer}, {@link #newReader}, {@link #newProducer}, {@link #newAdmin}), by {@link KafkaClients}: Kafka's
 * own unless {@link #withClients} substitutes others.
 */
public final class KafkaSettings {
    private final Properties common;
    private final ClientConfigs configs;
    private final Namespace namespace;
    private final KafkaClients clients;
    /** A broker in this process, whose data ends with the command (see {@link #inProcess(String)}). */
    private final boolean inProcess;

    private KafkaSettings(Properties common, Namespace namespace, KafkaClients clients) {
        this(common, namespace, clients, false);
    }

    private KafkaSettings(Properties common, Namespace namespace, KafkaClients clients, boolean inProcess) {
        this.common = common;
        this.configs = new ClientConfigs(common);
        this.namespace = namespace;
        this.clients = clients;
        this.inProcess = inProcess;
    }

    /** True for an environment variable that becomes a Kafka client setting. */
    public static boolean isClientSetting(String name) {
        return KafkaEnvironment.isClientSetting(name);
    }

    /** @throws IllegalArgumentException when {@code env} sets no bootstrap servers */
    public static KafkaSettings fromEnvironment(Map<String, String> env) {
        return new KafkaSettings(KafkaEnvironment.clientSettings(env), Namespace.fromEnvironment(env),
                KafkaClients.KAFKA);
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
     * half a second a client each time a small copy stops), as nobody takes their partitions over. Clients retry
     * after 10 ms, not 100: each worker's first transaction waited a full back-off for its group's coordinator
     * (on the critical path of a small job, three times), and a broker in this process answers at once.
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
        props.putIfAbsent("retry.backoff.ms", "10"); // growing to retry.backoff.max.ms (1 s) on repeated errors
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

    /** A new consumer with {@link #follower}'s settings. */
    public Consumer<byte[], byte[]> newFollower() {
        return clients.consumer(follower());
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
        return configs.admin();
    }

    /** A transactional producer of raw bytes: values are serialized by the configured serializer. */
    public Properties producer(String transactionalId) {
        return configs.producer(transactionalId);
    }

    /** A consumer of raw bytes that sees only committed records and never commits by itself. */
    public Properties consumer(String groupId, int maxPollRecords) {
        return configs.consumer(groupId, maxPollRecords);
    }

    /** A Kafka Streams application's settings: the client settings plus its application id. */
    public Properties streams(String applicationId) {
        return configs.streams(applicationId);
    }

    /** A read_committed consumer that assigns partitions itself: no group, nothing committed. */
    public Properties reader() {
        return configs.reader();
    }

    /** A {@link #reader} for a topic of rare records, followed from start to close without seeking or pausing. */
    public Properties follower() {
        return configs.follower();
    }

    /** The serializer named by {@code value.serializer} (Confluent's, with a registry), else Avro single-object. */
    public Serializer<SpecificRecord> valueSerializer() {
        return ValueSerdes.serializer(common);
    }

    /** The deserializer named by {@code value.deserializer}, else Avro single-object. */
    public Deserializer<SpecificRecord> valueDeserializer() {
        return ValueSerdes.deserializer(common);
    }
}
