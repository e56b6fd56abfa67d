package io.tablescan.runtime;

import io.tablescan.metrics.Health;
import io.tablescan.metrics.MetricsServer;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The main of a worker process: configuration from the environment, topics, the loop, SIGTERM. The ledger
 * process shares the last part, {@link #serve}.
 */
public final class WorkerLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerLauncher.class);

    private WorkerLauncher() {}

    /** Runs the worker until SIGTERM; returns the process exit code. */
    public static int run(String name, Function<WorkerSettings, WorkerRuntime<?>> factory) {
        WorkerSettings settings;
        java.time.Duration kafkaWait;
        try {
            settings = WorkerSettings.fromEnvironment(System.getenv());
            kafkaWait = KafkaWait.limit(System.getenv());
            MetricsServer.port(System.getenv()); // a mistake there is reported before connecting
        } catch (IllegalArgumentException e) {
            System.err.println("tablescan " + name + "-worker: " + e.getMessage());
            return 2;
        }
        try {
            // Started with its broker, it waits for it, as Kafka's clients do: one line says so.
            KafkaWait.await(settings.kafka(), kafkaWait, line -> System.err.println("tablescan " + name + "-worker: " + line));
        } catch (KafkaWait.Unreachable e) {
            System.err.println("tablescan " + name + "-worker: " + e.getMessage());
            return 3;
        }
        try (Admin admin = settings.kafka().newAdmin()) {
            settings.ensureTopics(admin);
        } catch (RuntimeException e) {
            System.err.println("tablescan " + name + "-worker: cannot reach Kafka at " + settings.kafka().bootstrapServers()
                    + " (" + e.getMessage() + ")");
            return 3;
        }
        if (!settings.plugins().jars().isEmpty()) { // which code this worker runs, for whoever reads its log
            LOG.info("{} worker: sink plugins {}", name, settings.plugins().jars());
        }
        WorkerRuntime<?> runtime;
        try {
            runtime = factory.apply(settings);
        } catch (IllegalArgumentException e) { // a plugin jar that cannot work here, two sinks of one type
            System.err.println("tablescan " + name + "-worker: " + e.getMessage());
            return 2;
        }
        try {
            // Graceful stop: commit the batch in hand, leave the group, exit.
            serve(name, name + " worker", runtime, runtime::close, LOG);
        } catch (IllegalArgumentException e) {
            System.err.println("tablescan " + name + "-worker: " + e.getMessage());
            return 2;
        }
        runtime.run();
        return 0;
    }

    /**
     * Serves a started process until SIGTERM: metrics and health on {@code TABLESCAN_METRICS_PORT} (or none),
     * and a shutdown hook ({@code name-stop}) that closes the service, then the metrics, then releases the
     * latch returned. A bad metrics setting closes the service and throws IllegalArgumentException.
     *
     * @param who how the log names the process ("copy worker", "ledger")
     */
    public static CountDownLatch serve(String name, String who, Health health, Runnable close, Logger log) {
        return serve(name, who, health, close, log, metrics -> { });
    }

    /** As above, {@code routes} adding what else the process serves on that port (the ledger's status page). */
    public static CountDownLatch serve(String name, String who, Health health, Runnable close, Logger log,
            java.util.function.Consumer<MetricsServer> routes) {
        Optional<MetricsServer> metrics;
        try {
            metrics = MetricsServer.fromEnvironment(System.getenv(), health);
        } catch (IllegalArgumentException e) {
            close.run();
            throw e;
        }
        metrics.ifPresent(routes);
        // Several on one host: each says where `tablescan health --port` finds it.
        metrics.ifPresent(m -> log.info("{}: metrics and health on {}", who, m.where()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("{} stopping", who);
            close.run();
            metrics.ifPresent(MetricsServer::close);
            stopped.countDown();
        }, name + "-stop"));
        return stopped;
    }
}
