package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The Kafka client settings every worker derives from its environment. */
class KafkaSettingsTest {
    static final Map<String, String> ENV = Map.of(
            "KAFKA_BOOTSTRAP_SERVERS", "broker-1:9093,broker-2:9093",
            "KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
            "KAFKA_SASL_MECHANISM", "PLAIN",
            "KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.plain.PlainLoginModule required;",
            "KAFKA_HEAP_OPTS", "-Xmx1g",
            "KAFKA_OPTS", "-Dx=y",
            "TABLESCAN_MAX_IN_FLIGHT", "4",
            "PATH", "/usr/bin");

    @Test
    void kafkaVariablesBecomeLowerCaseDottedClientSettings() {
        Properties admin = KafkaSettings.fromEnvironment(ENV).admin();

        assertThat(admin).containsEntry("bootstrap.servers", "broker-1:9093,broker-2:9093")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required;");
        assertThat(admin.stringPropertyNames()).as("script variables and other variables stay out")
                .noneMatch(name -> name.startsWith("heap") || name.equals("opts") || name.contains("tablescan")
                        || name.equals("path"));
    }

    @Test
    void whatIsAClientSetting() {
        assertThat(KafkaSettings.isClientSetting("KAFKA_CLIENT_ID")).isTrue();
        assertThat(KafkaSettings.isClientSetting("KAFKA_")).isFalse();
        assertThat(KafkaSettings.isClientSetting("KAFKA_JVM_PERFORMANCE_OPTS")).isFalse();
        assertThat(KafkaSettings.isClientSetting("KAFKA_LOG4J_OPTS")).isFalse();
        assertThat(KafkaSettings.isClientSetting("KAFKA_DEBUG")).isFalse();
        assertThat(KafkaSettings.isClientSetting("MY_KAFKA_HOST")).isFalse();
    }

    @Test
    void bootstrapServersAreRequired() {
        assertThatThrownBy(() -> KafkaSettings.fromEnvironment(Map.of("KAFKA_SECURITY_PROTOCOL", "SSL")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("KAFKA_BOOTSTRAP_SERVERS is not set");
        assertThatThrownBy(() -> KafkaSettings.fromEnvironment(Map.of("KAFKA_BOOTSTRAP_SERVERS", " ")))
                .as("blank").isInstanceOf(IllegalArgumentException.class).hasMessage("KAFKA_BOOTSTRAP_SERVERS is not set");
    }

    @Test
    void givenBootstrapServersWinOverTheEnvironmentsAndKeepItsOtherSettings() {
        KafkaSettings settings = KafkaSettings.of("localhost:19092", ENV);

        assertThat(settings.bootstrapServers()).isEqualTo("localhost:19092");
        assertThat(settings.admin()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(KafkaSettings.of("localhost:1").admin()).containsEntry("bootstrap.servers", "localhost:1")
                .containsEntry("request.timeout.ms", "15000");
    }

    @Test
    void consumersReadCommittedRecordsAndNeverCommitByThemselves() {
        Map<String, String> env = Map.of("KAFKA_BOOTSTRAP_SERVERS", "b:9092",
                "KAFKA_ISOLATION_LEVEL", "read_uncommitted", "KAFKA_ENABLE_AUTO_COMMIT", "true",
                "KAFKA_MAX_POLL_RECORDS", "7");

        Properties consumer = KafkaSettings.fromEnvironment(env).consumer("tablescan-copy", 500);

        assertThat(consumer).containsEntry("group.id", "tablescan-copy")
                .containsEntry("isolation.level", "read_committed")
                .containsEntry("enable.auto.commit", "false")
                .containsEntry("group.protocol", "consumer")
                .containsEntry("auto.offset.reset", "earliest")
                .containsEntry("max.poll.records", "7")
                .containsEntry("max.partition.fetch.bytes", Integer.toString(Topics.MAX_MESSAGE_BYTES))
                .containsEntry("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer")
                .containsEntry("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        assertThat(KafkaSettings.of("b:9092").consumer("g", 16)).containsEntry("max.poll.records", "16");
    }

    @Test
    void followersOfRareRecordsWaitLongOnTheBrokerAndReadCommittedRecords() {
        Properties follower = KafkaSettings.of("b:9092").follower();

        assertThat(follower).containsEntry("fetch.max.wait.ms", "5000")
                .containsEntry("isolation.level", "read_committed")
                .doesNotContainKey("group.id");
        assertThat(KafkaSettings.of("b:9092").reader()).doesNotContainKey("fetch.max.wait.ms");
    }

    @Test
    void theClassicGroupProtocolCanBeChosen() {
        KafkaSettings settings = KafkaSettings.fromEnvironment(
                Map.of("KAFKA_BOOTSTRAP_SERVERS", "b:9092", "KAFKA_GROUP_PROTOCOL", "classic"));

        assertThat(settings.consumer("g", 10)).containsEntry("group.protocol", "classic");
        assertThat(settings.streams("ledger")).containsEntry("group.protocol", "classic");
    }

    @Test
    void producersAreTransactionalWithShortTransactionsAndRoomForTheLargestMessage() {
        Properties producer = KafkaSettings.of("b:9092").producer("tablescan-copy-0");

        assertThat(producer).containsEntry("transactional.id", "tablescan-copy-0")
                .containsEntry("transaction.timeout.ms", "15000")
                .containsEntry("max.request.size", Integer.toString(Topics.MAX_MESSAGE_BYTES))
                .containsEntry("compression.type", "lz4")
                .containsEntry("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer")
                .containsEntry("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        assertThat(KafkaSettings.of("b:9092", Map.of("KAFKA_TRANSACTION_TIMEOUT_MS", "60000")).producer("t"))
                .as("defaults give way to the environment").containsEntry("transaction.timeout.ms", "60000");
    }

    @Test
    void aStaticGroupInstanceIdGoesOnlyToGroupMembers() {
        KafkaSettings settings = KafkaSettings.of("b:9092", Map.of("KAFKA_GROUP_INSTANCE_ID", "copy-worker-3"));

        assertThat(settings.consumer("g", 10)).containsEntry("group.instance.id", "copy-worker-3");
        assertThat(settings.streams("ledger")).containsEntry("group.instance.id", "copy-worker-3");
        assertThat(settings.producer("t")).doesNotContainKey("group.instance.id");
        assertThat(settings.admin()).doesNotContainKey("group.instance.id");
    }

    @Test
    void aReaderOfAWorkerWithAStaticGroupInstanceIdCanBeCreated() {
        Properties reader = KafkaSettings.of("localhost:1", Map.of("KAFKA_GROUP_INSTANCE_ID", "copy-worker-3")).reader();

        // No group: creating it contacts no broker, and it must not be refused for its settings.
        new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(reader).close(java.time.Duration.ZERO);
    }

    @Test
    void streamsGetTheirApplicationIdAndNoConsumerGroupProtocol() {
        Properties streams = KafkaSettings.of("b:9092").streams("tablescan-ledger");

        assertThat(streams).containsEntry("application.id", "tablescan-ledger")
                .containsEntry("producer.compression.type", "lz4")
                .doesNotContainKey("group.protocol");
    }

    @Test
    void aReaderReadsCommittedRecordsWithoutAGroup() {
        Properties reader = KafkaSettings.of("b:9092").reader();

        assertThat(reader).doesNotContainKeys("group.id", "group.protocol")
                .containsEntry("isolation.level", "read_committed")
                .containsEntry("enable.auto.commit", "false");
    }

    @Test
    void valueSerdesDefaultToAvroSingleObjectAndStayOutOfTheClientProperties() {
        KafkaSettings plain = KafkaSettings.of("b:9092");
        assertThat(plain.valueSerializer()).isInstanceOf(AvroSingleObjectSerializer.class);
        assertThat(plain.valueDeserializer()).isInstanceOf(AvroSingleObjectDeserializer.class);

        KafkaSettings named = KafkaSettings.of("b:9092", Map.of(
                "KAFKA_VALUE_SERIALIZER", AvroSingleObjectSerializer.class.getName(),
                "KAFKA_VALUE_DESERIALIZER", AvroSingleObjectDeserializer.class.getName()));
        assertThat(named.valueSerializer()).isInstanceOf(AvroSingleObjectSerializer.class);
        assertThat(named.producer("t")).containsEntry("value.serializer",
                "org.apache.kafka.common.serialization.ByteArraySerializer");
        assertThat(named.admin()).doesNotContainKeys("value.serializer", "value.deserializer");
    }

    @Test
    void aSerializerThatCannotBeCreatedIsRefusedWithItsName() {
        KafkaSettings missing = KafkaSettings.of("b:9092",
                Map.of("KAFKA_VALUE_SERIALIZER", "io.confluent.kafka.serializers.KafkaAvroSerializer"));
        assertThatThrownBy(missing::valueSerializer).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value.serializer").hasMessageContaining("KafkaAvroSerializer");

        KafkaSettings wrongType = KafkaSettings.of("b:9092",
                Map.of("KAFKA_VALUE_DESERIALIZER", AvroSingleObjectSerializer.class.getName()));
        assertThatThrownBy(wrongType::valueDeserializer).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value.deserializer");
    }

    @Test
    void everyClientIsMadeByTheSettingsClientsWithTheSettingsConfigs() {
        List<Properties> made = new ArrayList<>();
        KafkaClients recording = new KafkaClients() {
            @Override
            public Consumer<byte[], byte[]> consumer(Properties config) {
                made.add(config);
                return new MockConsumer<>("earliest");
            }

            @Override
            public Producer<byte[], byte[]> producer(Properties config) {
                made.add(config);
                return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            }

            @Override
            public Admin admin(Properties config) {
                made.add(config);
                return null;
            }
        };
        KafkaSettings kafka = KafkaSettings.fromEnvironment(ENV).withClients(recording)
                .withNamespace(Namespace.fromEnvironment(Map.of()));

        assertThat(kafka.newConsumer("group", 7)).isInstanceOf(MockConsumer.class);
        assertThat(kafka.newReader()).isInstanceOf(MockConsumer.class);
        assertThat(kafka.newProducer("tx")).isInstanceOf(MockProducer.class);
        kafka.newAdmin();

        assertThat(made).containsExactly(kafka.consumer("group", 7), kafka.reader(), kafka.producer("tx"), kafka.admin());
        assertThat(kafka.clients()).isSameAs(recording);
        assertThat(KafkaSettings.of("broker:9092").clients()).isSameAs(KafkaClients.KAFKA);
    }
}
