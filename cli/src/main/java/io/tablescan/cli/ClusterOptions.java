package io.tablescan.cli;

import io.tablescan.runtime.KafkaSettings;
import picocli.CommandLine.Option;

/** Where the Kafka cluster is: --kafka, else KAFKA_BOOTSTRAP_SERVERS; other KAFKA_* variables pass through. */
final class ClusterOptions {
    @Option(names = "--kafka", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default: $KAFKA_BOOTSTRAP_SERVERS). KAFKA_* variables (TLS, SASL) apply.")
    String kafka;

    /** The cluster's settings, checked to be reachable. */
    KafkaSettings settings() {
        String bootstrap = kafka != null ? kafka : System.getenv("KAFKA_BOOTSTRAP_SERVERS");
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new UserError(UserError.USAGE, "no Kafka cluster: pass --kafka HOST:PORT or set KAFKA_BOOTSTRAP_SERVERS");
        }
        KafkaSettings settings = KafkaSettings.of(bootstrap, System.getenv());
        Checks.kafkaReachable(settings);
        return settings;
    }
}
