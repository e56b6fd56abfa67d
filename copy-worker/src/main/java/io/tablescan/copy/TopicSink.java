package io.tablescan.copy;

import io.tablescan.azure.RowJson;
import io.tablescan.runtime.KafkaSettings;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
final class TopicSink implements RowSink {
    static final String TYPE = "topic";
    /** The option that chooses the record key: {@value #BY_PARTITION}, or the row's keys by default. */
    static final String KEY_OPTION = "key";
    static final String BY_PARTITION = "partition";

    private final KafkaSettings kafka;
    private final String topic;
    private final boolean byPartition;

    TopicSink(KafkaSettings kafka, String topic) {
        this(kafka, topic, false);
    }

    TopicSink(KafkaSettings kafka, String topic, boolean byPartition) {
        this.kafka = kafka;
        this.topic = topic;
        this.byPartition = byPartition;
    }

    @Override
    public void prepare() {
        NewTopic created = new NewTopic(topic, Optional.empty(), Optional.empty())
                .configs(Map.of("max.message.bytes", Integer.toString(Topics.MAX_MESSAGE_BYTES)));
        try (Admin admin = kafka.newAdmin()) {
            Topics.ensure(admin, List.of(created), Duration.ofSeconds(60));
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof AuthorizationException) {
                throw SinkException.permanent(e.getMessage()); // an ACL the cluster's admin must grant
            }
            throw SinkException.transientFailure(e.getMessage(), e);
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
            if (kafka.namespace().topics().contains(topic)) { // rows in a work-item topic would be poison there
                throw SinkException.permanent("topic " + topic + " is one of tablescan's own");
            }
            String key = context.ref().options().get(KEY_OPTION);
            if (key != null && !key.equals(BY_PARTITION)) {
                throw SinkException.permanent("option key must be " + BY_PARTITION + " when given");
            }
            return new TopicSink(kafka, topic, key != null);
        }
    }
}
