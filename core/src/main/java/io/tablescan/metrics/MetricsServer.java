package io.tablescan.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The HTTP endpoints of a worker or ledger process: {@code /metrics} (Prometheus text format),
 * {@code /health/live} and {@code /health/ready} (200 or 503). Meters are recorded on Micrometer's global
 * registry, so code that records them needs no reference to this server.
 */
public final class MetricsServer implements AutoCloseable {
    public static final String PORT = "TABLESCAN_METRICS_PORT";
    public static final String HOST = "TABLESCAN_METRICS_HOST";
    public static final int DEFAULT_PORT = 9400;

    private final HttpServer server;
    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    /** The default port that was taken when this server fell back to a free one, else 0. */
    private int takenDefault;

    private MetricsServer(HttpServer server, PrometheusMeterRegistry registry) {
        this.server = server;
        this.registry = registry;
    }

    /**
     * The port {@code TABLESCAN_METRICS_PORT} asks for (default 9400; 0 picks a free port), or empty for
     * {@code off}; a clear error for anything else.
     */
    public static Optional<Integer> port(Map<String, String> env) {
        String port = env.getOrDefault(PORT, "").trim();
        if (port.equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        try {
            int number = port.isEmpty() ? DEFAULT_PORT : Integer.parseInt(port);
            if (number < 0 || number > 65_535) {
                throw new NumberFormatException();
            }
            return Optional.of(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PORT + " must be a port number, 0 (any free port) or off, got '" + port + "'");
        }
    }

    /**
     * Starts on {@code TABLESCAN_METRICS_HOST} (default all interfaces) and {@link #port}, or not at all. When
     * the port is not set and 9400 is taken (several workers on one machine, as the README starts them), any
     * free port is used and logged; a port set explicitly must be free.
     */
    public static Optional<MetricsServer> fromEnvironment(Map<String, String> env, Health health) {
        return fromEnvironment(env, health, DEFAULT_PORT);
    }

    /** As above, with {@code defaultPort} in place of 9400 (tests cannot count on 9400 being free). */
    static Optional<MetricsServer> fromEnvironment(Map<String, String> env, Health health, int defaultPort) {
        boolean explicit = !env.getOrDefault(PORT, "").isBlank();
        Optional<Integer> port = explicit ? port(env) : Optional.of(defaultPort);
        if (port.isEmpty()) {
            return Optional.empty();
        }
        String host = env.getOrDefault(HOST, "0.0.0.0");
        try {
            return Optional.of(start(host, port.get(), health));
        } catch (BindException e) {
            if (!explicit) {
                return Optional.of(anyFreePort(host, port.get(), health));
            }
            throw new IllegalArgumentException("cannot listen on " + host + ":" + port.get() + " for metrics and health ("
                    + e.getMessage() + "): set " + PORT + " to a free port, 0, or off");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot start the metrics server: " + e.getMessage());
        }
    }

    private static MetricsServer anyFreePort(String host, int taken, Health health) {
        try {
            MetricsServer server = start(host, 0, health);
            server.takenDefault = taken;
            return server;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot start the metrics server: " + e.getMessage());
        }
    }

    public static MetricsServer start(String host, int port, Health health) throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        MetricsServer metrics = new MetricsServer(server, registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        metrics.gc.bindTo(registry);
        Metrics.addRegistry(registry); // meters recorded anywhere in the process appear here
        server.createContext("/metrics", exchange -> respond(exchange, 200, registry.scrape(),
                "text/plain; version=0.0.4; charset=utf-8"));
        server.createContext("/health/live", exchange -> status(exchange, health::live));
        server.createContext("/health/ready", exchange -> status(exchange, health::ready));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        return metrics;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Serves {@code handler} at {@code path} beside metrics and health (the ledger's status page). */
    public void route(String path, com.sun.net.httpserver.HttpHandler handler) {
        server.createContext(path, handler);
    }

    /** Where it serves, for the one log line a process writes about it: the port, and why when not the default. */
    public String where() {
        return "port " + port() + (takenDefault == 0 ? ""
                : " (" + takenDefault + " is taken; set " + PORT + " to choose one)");
    }

    private static void status(HttpExchange exchange, BooleanSupplier check) throws IOException {
        boolean up = check.getAsBoolean();
        respond(exchange, up ? 200 : 503, up ? "UP\n" : "DOWN\n", "text/plain; charset=utf-8");
    }

    private static void respond(HttpExchange exchange, int status, String body, String type) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().toUpperCase(Locale.ROOT).equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        Metrics.removeRegistry(registry);
        gc.close();
        registry.close();
    }
}
