package io.tablescan.copy;

import io.tablescan.azure.RowJson;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.ReservedTopics;
import io.tablescan.runtime.Topics;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkOutput;
import io.tablescan.spi.SinkProvider;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

/**
 * Sink type {@value #TYPE}: one Kafka record per row on the topic the reference names (created if missing, with
 * the cluster's default partitions), key {@code ["PartitionKey","RowKey"]}, value the row as the REST API's JSON
 * ({@link RowJson}). The records go out in the copy-worker's transaction with the batch's offsets, so each row is
 * published exactly once for {@code read_committed} consumers; the runtime adds the scan id as a header. With the
 * option {@code key=partition} the key is {@code ["PartitionKey"]} alone, so that a partition's rows share a topic
 * partition (an export's files then keep them together).
 */
public final class TopicSink implements RowSink {
    static final String TYPE = "topic";
    /** The option that chooses the record key: {@value #BY_PARTITION}, or the row's keys by default. */
    static final String KEY_OPTION = "key";
    static final String BY_PARTITION = "partition";
    /** The option that sets a new topic's compression.type; absent: the broker's default. */
    public static final String COMPRESSION_OPTION = "compression";
    /** With the value "set": an existing topic's compression.type is changed too (the user asked for one). */
    public static final String COMPRESSION_OF_EXISTING_OPTION = "compression-of-existing";
    /** The values of {@value #COMPRESSION_OPTION}, as the CLI's --topic-compression takes them. */
    public static final List<String> COMPRESSIONS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    private final KafkaSettings kafka;
    private final String topic;
    private final boolean byPartition;
    /** A new topic's compression.type, null for the broker's default. */
    private final String compressionType;
    /** True: an existing topic's compression.type is set to {@link #compressionType} too. */
    private final boolean ofExisting;

    TopicSink(KafkaSettings kafka, String topic) {
        this(kafka, topic, false, null, false);
    }

    TopicSink(KafkaSettings kafka, String topic, boolean byPartition, String compression, boolean ofExisting) {
        this.kafka = kafka;
        this.topic = topic;
        this.byPartition = byPartition;
        this.compressionType = compression == null ? null : compression.equals("none") ? "uncompressed" : compression;
        this.ofExisting = ofExisting && compression != null;
    }

    /**
     * Creates the topic if missing with the compression.type asked for, and sets an existing topic's only when the
     * user asked for one explicitly (a user's topic keeps its own settings otherwise): the broker then stores the
     * records so compressed, whatever the worker's producer sent (LZ4), so a consumer without an LZ4 codec reads them.
     */
    @Override
    public void prepare() {
        Map<String, String> configs = new java.util.HashMap<>(Map.of("max.message.bytes",
                Integer.toString(Topics.MAX_MESSAGE_BYTES)));
        if (compressionType != null) {
            configs.put(TopicConfig.COMPRESSION_TYPE_CONFIG, compressionType);
        }
        NewTopic created = new NewTopic(topic, Optional.empty(), Optional.empty()).configs(configs);
        try (Admin admin = kafka.newAdmin()) {
            Topics.ensure(admin, List.of(created), Duration.ofSeconds(60));
            if (ofExisting) {
                setCompression(admin);
            }
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof AuthorizationException) {
                throw SinkException.permanent(e.getMessage()); // an ACL the cluster's admin must grant
            }
            throw SinkException.transientFailure(e.getMessage(), e);
        }
    }

    /** An existing topic keeps its own settings but for compression.type, which the user asked for explicitly. */
    private void setCompression(Admin admin) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            ConfigEntry current = config.get(TopicConfig.COMPRESSION_TYPE_CONFIG);
            if (current == null || !compressionType.equals(current.value())) {
                admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(
                        TopicConfig.COMPRESSION_TYPE_CONFIG, compressionType), AlterConfigOp.OpType.SET)))).all().get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot set compression.type of topic " + topic + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    @Override
    public int write(List<Row> rows) {
        throw new UnsupportedOperationException("the topic sink publishes through write(rows, output)");
    }

    @Override
    public int write(List<Row> rows, SinkOutput output) {
        for (Row row : rows) {
            output.publish(topic, byPartition ? RowJson.partitionKeyJson(row) : RowJson.keysJson(row),
                    RowJson.toJson(row), Map.of());
        }
        return 0; // no table requests: the records go out with the worker's transaction
    }

    /** Makes topic sinks on the worker's Kafka cluster. */
    record Provider(KafkaSettings kafka) implements SinkProvider {
        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public RowSink create(SinkContext context) {
            String topic = context.ref().target();
            try {
                Topic.validate(topic);
            } catch (InvalidTopicException e) {
                throw SinkException.permanent("not a Kafka topic name: " + e.getMessage());
            }
            String refusal = ReservedTopics.refusal(topic); // for a spec seeded by another client than the CLI
            if (refusal != null) { // Kafka's internal topics; work-item topics of any namespace, where rows are poison
                throw SinkException.permanent("topic " + topic + " " + refusal);
            }
            String key = context.ref().options().get(KEY_OPTION);
            if (key != null && !key.equals(BY_PARTITION)) {
                throw SinkException.permanent("option key must be " + BY_PARTITION + " when given");
            }
            String compression = context.ref().options().get(COMPRESSION_OPTION);
            if (compression != null && !COMPRESSIONS.contains(compression)) {
                throw SinkException.permanent("option compression must be one of " + String.join(", ", COMPRESSIONS));
            }
            return new TopicSink(kafka, topic, key != null, compression,
                    "set".equals(context.ref().options().get(COMPRESSION_OF_EXISTING_OPTION)));
        }
    }
}
