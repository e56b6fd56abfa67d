package io.tablescan.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Waits for a Kafka cluster that is starting, as Kafka's own clients do: a broker, workers and commands started at
 * the same moment come up in any order. Only a host name that does not resolve fails at once (waiting cannot help).
 */
public final class KafkaWait {
    /** How long a command or worker waits for the cluster to answer: {@code 60s}, {@code 5m}, {@code 0s}. */
    public static final String VARIABLE = "TABLESCAN_KAFKA_WAIT";
    public static final Duration DEFAULT = Duration.ofSeconds(60);
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})([smh])");

    private KafkaWait() {}

    /** The cluster did not answer in time, or a host does not resolve: {@link #getMessage()} is one line. */
    public static final class Unreachable extends RuntimeException {
        Unreachable(String message) {
            super(message, null, false, false);
        }
    }

    /** The limit the environment sets; IllegalArgumentException naming the variable when malformed. */
    public static Duration limit(Map<String, String> env) {
        String value = env.get(VARIABLE);
        if (value == null || value.isBlank()) {
            return DEFAULT;
        }
        Matcher m = FORM.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(VARIABLE + " must be a duration such as 60s, 5m or 0s");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /**
     * Returns once the cluster answers; {@code say} gets one line when it does not at first. Throws
     * {@link Unreachable} when a bootstrap host does not resolve, or when the cluster has not answered within
     * {@code limit}.
     */
    public static void await(KafkaSettings kafka, Duration limit, Consumer<String> say) {
        for (String server : kafka.bootstrapServers().split(",")) {
            String host = server.trim().replaceFirst(":\\d+$", "").replaceAll("^\\[|\\]$", "");
            try {
                InetAddress.getByName(host);
            } catch (UnknownHostException e) {
                throw new Unreachable("cannot reach Kafka at " + kafka.bootstrapServers() + ": host " + host
                        + " does not resolve");
            }
        }
        long end = System.nanoTime() + limit.toNanos();
        Properties props = kafka.admin();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "8000");
        boolean said = false;
        try (Admin admin = kafka.clients().admin(props)) {
            while (true) {
                // The first attempt is short, so that the line saying it waits comes early.
                long leftMs = Math.max(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()), 0);
                int attemptMs = (int) Math.min(Math.max(leftMs, 1000), said ? 8000 : 1000);
                try {
                    if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(attemptMs)).nodes()
                            .get(attemptMs + 2000L, TimeUnit.MILLISECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not (yet) answering
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Unreachable("interrupted while waiting for Kafka at " + kafka.bootstrapServers());
                }
                if (!said && !limit.isZero()) {
                    say.accept("waiting up to " + limit.toSeconds() + " s for Kafka at " + kafka.bootstrapServers()
                            + " to answer (" + VARIABLE + ")");
                }
                said = true;
                if (System.nanoTime() - end >= 0) {
                    throw new Unreachable("cannot reach Kafka at " + kafka.bootstrapServers() + " (waited "
                            + limit.toSeconds() + " s; " + VARIABLE + " sets how long)");
                }
            }
        }
    }
}
