package io.tablescan.cli;

import io.tablescan.runtime.KafkaSettings;
import picocli.CommandLine.Option;

/**
 * Where the Kafka cluster is: --kafka, else KAFKA_BOOTSTRAP_SERVERS; other KAFKA_* variables pass through, and
 * TABLESCAN_NAMESPACE picks the deployment on that cluster.
 */
final class ClusterOptions {
    @Option(names = "--kafka", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default: $KAFKA_BOOTSTRAP_SERVERS). KAFKA_* variables (TLS, SASL) "
                    + "and TABLESCAN_NAMESPACE (the deployment's topics and groups, default tablescan) apply.")
    String kafka;

    /** The cluster's settings, checked to be reachable. */
    KafkaSettings settings() {
        KafkaSettings settings = configured();
        Checks.kafkaReachable(settings);
        return settings;
    }

    /** The cluster's settings as given, before anything connects. */
    KafkaSettings configured() {
        String bootstrap = kafka != null ? kafka : System.getenv("KAFKA_BOOTSTRAP_SERVERS");
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new UserError(UserError.USAGE, "no Kafka cluster: pass --kafka HOST:PORT or set KAFKA_BOOTSTRAP_SERVERS");
        }
        return environment(bootstrap, System.getenv());
    }

    /**
     * The KAFKA_* settings and the namespace from the command's environment {@code env} (the process's, or a
     * test's), checked before anything connects.
     */
    static KafkaSettings environment(String bootstrap, java.util.Map<String, String> env) {
        try {
            return KafkaSettings.of(bootstrap, env);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }
}
