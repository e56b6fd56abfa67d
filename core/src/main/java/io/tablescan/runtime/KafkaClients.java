package io.tablescan.runtime;

import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Makes the Kafka clients, from the configs {@link KafkaSettings} builds: the one place to substitute them (in a
 * test, say, with {@link KafkaSettings#withClients}). Callers go through {@link KafkaSettings#newConsumer},
 * {@link KafkaSettings#newReader}, {@link KafkaSettings#newProducer} and {@link KafkaSettings#newAdmin}.
 */
public interface KafkaClients {
    /** Kafka's own clients. */
    KafkaClients KAFKA = new KafkaClients() {
        @Override
        public Consumer<byte[], byte[]> consumer(Properties config) {
            return new KafkaConsumer<>(config);
        }

        @Override
        public Producer<byte[], byte[]> producer(Properties config) {
            return new KafkaProducer<>(config);
        }

        @Override
        public Admin admin(Properties config) {
            return Admin.create(config);
        }
    };

    /** Kafka's own producers and admin clients, and consumers made by {@code consumers} (a test's, say). */
    static KafkaClients withConsumers(java.util.function.Function<Properties, Consumer<byte[], byte[]>> consumers) {
        return new KafkaClients() {
            @Override
            public Consumer<byte[], byte[]> consumer(Properties config) {
                return consumers.apply(config);
            }

            @Override
            public Producer<byte[], byte[]> producer(Properties config) {
                return KAFKA.producer(config);
            }

            @Override
            public Admin admin(Properties config) {
                return KAFKA.admin(config);
            }
        };
    }

    Consumer<byte[], byte[]> consumer(Properties config);

    Producer<byte[], byte[]> producer(Properties config);

    Admin admin(Properties config);
}
