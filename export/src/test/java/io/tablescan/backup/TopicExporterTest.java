package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaClients;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The export's second stage on a real broker: every row in a file, and no reader waits at its close. */
class TopicExporterTest {
    /** How each consumer that fetched was closed: "close()" (waits for the fetch in flight) or "close(PT0S)". */
    private final List<String> closes = new CopyOnWriteArrayList<>();

    @Test
    void everyPartitionsRowsGoToFilesAndNoReaderWaitsForItsFetchInFlight(@TempDir Path dir) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers()).withClients(recording());
            String topic = "export-test";
            try (Admin admin = kafka.newAdmin()) {
                Topics.ensure(admin, List.of(new NewTopic(topic, Optional.of(6), Optional.empty())),
                        Duration.ofSeconds(60));
            }
            try (Producer<byte[], byte[]> producer = kafka.newProducer("export-test-writer")) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 60; i++) {
                    producer.send(new ProducerRecord<>(topic, i % 6, null,
                            ("{\"PartitionKey\":\"p" + i + "\",\"RowKey\":\"r\"}").getBytes(StandardCharsets.UTF_8)));
                }
                producer.commitTransaction();
            }
            List<Manifest.DataFile> files = new TopicExporter(kafka, topic).export(new FolderStore(dir), "run1", n -> {});
            assertThat(files.stream().mapToLong(Manifest.DataFile::rows).sum()).isEqualTo(60);
            assertThat(files).hasSize(6);
        }
        // A reader has no group and commits nothing; closing it with the default timeout waits for the fetch it
        // has in flight (up to fetch.max.wait.ms, 500 ms): half a second a partition, which a set of small tables pays
        // for each of its tables.
        assertThat(closes).isNotEmpty().containsOnly("close(PT0S)");
    }

    /** Kafka's own clients, each consumer recording how it was closed. */
    private KafkaClients recording() {
        return KafkaClients.withConsumers(config -> {
            Consumer<byte[], byte[]> real = KafkaClients.KAFKA.consumer(config);
            boolean[] polled = {false};
            @SuppressWarnings("unchecked")
            Consumer<byte[], byte[]> recorded = (Consumer<byte[], byte[]>) Proxy.newProxyInstance(
                    Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
                        polled[0] |= method.getName().equals("poll");
                        if (method.getName().equals("close") && polled[0]) {
                            closes.add("close(" + (args == null ? "" : args[0]) + ")");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            return recorded;
        });
    }
}
