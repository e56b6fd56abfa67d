package io.tablescan.runtime;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Kafka client settings from environment variables: every {@code KAFKA_<NAME>} becomes the client property
 * {@code <name>} with underscores as dots ({@code KAFKA_SECURITY_PROTOCOL=SASL_SSL} sets {@code security.protocol}),
 * so TLS, SASL and any other client setting pass through unchanged.
 */
final class KafkaEnvironment {
    /** Conventional variables of Kafka's own scripts, not client settings. */
    private static final Set<String> NOT_CLIENT_SETTINGS =
            Set.of("KAFKA_HEAP_OPTS", "KAFKA_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_LOG4J_OPTS", "KAFKA_DEBUG");

    private KafkaEnvironment() {}

    /** True for an environment variable that becomes a Kafka client setting. */
    static boolean isClientSetting(String name) {
        return name.startsWith("KAFKA_") && name.length() > 6 && !NOT_CLIENT_SETTINGS.contains(name);
    }

    /**
     * The client properties {@code env} sets.
     *
     * @throws IllegalArgumentException when it sets no bootstrap servers
     */
    static Properties clientSettings(Map<String, String> env) {
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
        return props;
    }
}
