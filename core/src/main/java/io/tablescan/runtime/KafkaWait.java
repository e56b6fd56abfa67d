package io.tablescan.runtime;

import java.io.IOException;
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
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * Waits for a Kafka cluster that is starting, as Kafka's own clients do: a broker, workers and commands started at
 * the same moment come up in any order. What waiting cannot help fails at once: no bootstrap host resolves (as
 * Kafka's client, one that does not is only skipped), or the cluster refuses the client (authentication, TLS, an
 * unsupported protocol version).
 */
public final class KafkaWait {
    /** How long a command or worker waits for the cluster to answer: {@code 60s}, {@code 5m}, {@code 0s}. */
    public static final String VARIABLE = "TABLESCAN_KAFKA_WAIT";
    public static final Duration DEFAULT = Duration.ofSeconds(60);
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})([smh])");
    /** The least time between two attempts, so that an attempt that fails at once does not spin. */
    static final Duration PAUSE = Duration.ofMillis(500);

    private KafkaWait() {}

    /** The cluster did not answer in time, refused the client, or no host resolves: {@link #getMessage()} is one line. */
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
     * {@link Unreachable} when no bootstrap host resolves, when the cluster refuses the client, or when it has not
     * answered within {@code limit}.
     */
    public static void await(KafkaSettings kafka, Duration limit, Consumer<String> say) {
        requireAHostThatResolves(kafka.bootstrapServers());
        long end = System.nanoTime() + limit.toNanos();
        Properties props = kafka.admin();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "8000");
        boolean said = false;
        // A cluster that accepts connections is up: its first answer, slow on a loaded machine (over 3 s seen), is
        // waited for longer before a line says that this waits for it.
        boolean listening = listening(kafka.bootstrapServers());
        try (Admin admin = kafka.clients().admin(props)) {
            while (true) {
                long attemptStart = System.nanoTime();
                // The first attempt is short, so that the line saying it waits comes early, but not so short that a
                // cluster that is up misses it: on a loaded machine a new client's first answer can take over 1 s.
                long leftMs = Math.max(TimeUnit.NANOSECONDS.toMillis(end - attemptStart), 0);
                int attemptMs = (int) Math.min(Math.max(leftMs, 1000), said ? 8000 : listening ? 10_000 : 3000);
                try {
                    if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(attemptMs)).nodes()
                            .get(attemptMs + 2000L, TimeUnit.MILLISECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException e) {
                    refusedAtOnce(kafka, e.getCause());
                } catch (TimeoutException e) {
                    // not answering yet
                } catch (InterruptedException e) {
                    throw interrupted(kafka);
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
                pauseAfter(attemptStart, end, kafka);
            }
        }
    }

    /** Whether a bootstrap server accepts a TCP connection within a second: something listens there. */
    static boolean listening(String bootstrapServers) {
        for (String server : bootstrapServers.split(",")) {
            int colon = server.trim().lastIndexOf(':');
            if (colon < 0) {
                continue;
            }
            String host = server.trim().substring(0, colon).replaceAll("^\\[|\\]$", "");
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(host, Integer.parseInt(server.trim().substring(colon + 1))),
                        1000);
                return true;
            } catch (IOException | RuntimeException e) {
                // not this one
            }
        }
        return false;
    }

    /** Fails at once when no host of the list resolves; one that does not is skipped, as Kafka's client does. */
    private static void requireAHostThatResolves(String bootstrapServers) {
        String last = null;
        for (String server : bootstrapServers.split(",")) {
            String host = server.trim().replaceFirst(":\\d+$", "").replaceAll("^\\[|\\]$", "");
            try {
                InetAddress.getByName(host);
                return;
            } catch (UnknownHostException e) {
                last = host;
            }
        }
        throw new Unreachable("cannot reach Kafka at " + bootstrapServers + ": "
                + (bootstrapServers.contains(",") ? "no host resolves" : "host " + last + " does not resolve"));
    }

    /** An error that waiting cannot fix ends the wait with its own (one-line) message; any other is retried. */
    private static void refusedAtOnce(KafkaSettings kafka, Throwable cause) {
        if (cause instanceof AuthenticationException || cause instanceof UnsupportedVersionException) {
            String text = String.valueOf(cause.getMessage()).lines().findFirst().orElse("").strip();
            throw new Unreachable("cannot use Kafka at " + kafka.bootstrapServers() + ": "
                    + (text.isEmpty() || text.equals("null") ? cause.getClass().getSimpleName() : text));
        }
    }

    /** Sleeps what is left of {@link #PAUSE} since {@code attemptStart}, never past {@code end}. */
    private static void pauseAfter(long attemptStart, long end, KafkaSettings kafka) {
        long until = end - (attemptStart + PAUSE.toNanos()) < 0 ? end : attemptStart + PAUSE.toNanos();
        long nanos = until - System.nanoTime();
        if (nanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
            } catch (InterruptedException e) {
                throw interrupted(kafka);
            }
        }
    }

    private static Unreachable interrupted(KafkaSettings kafka) {
        Thread.currentThread().interrupt();
        return new Unreachable("interrupted while waiting for Kafka at " + kafka.bootstrapServers());
    }
}
