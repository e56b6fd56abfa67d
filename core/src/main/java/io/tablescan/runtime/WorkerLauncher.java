package io.tablescan.runtime;

import io.tablescan.metrics.MetricsServer;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The main of a worker process: configuration from the environment, topics, the loop, SIGTERM. */
public final class WorkerLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerLauncher.class);

    private WorkerLauncher() {}

    /** Runs the worker until SIGTERM; returns the process exit code. */
    public static int run(String name, Function<WorkerSettings, WorkerRuntime<?>> factory) {
        WorkerSettings settings;
        try {
            settings = WorkerSettings.fromEnvironment(System.getenv());
            MetricsServer.port(System.getenv()); // a mistake there is reported before connecting
        } catch (IllegalArgumentException e) {
            System.err.println("tablescan " + name + "-worker: " + e.getMessage());
            return 2;
        }
        try (Admin admin = settings.kafka().newAdmin()) {
            settings.ensureTopics(admin);
        } catch (RuntimeException e) {
            System.err.println("tablescan " + name + "-worker: cannot reach Kafka at " + settings.kafka().bootstrapServers()
                    + " (" + e.getMessage() + ")");
            return 3;
        }
        WorkerRuntime<?> runtime = factory.apply(settings);
        Optional<MetricsServer> metrics;
        try {
            metrics = MetricsServer.fromEnvironment(System.getenv(), runtime);
        } catch (IllegalArgumentException e) {
            System.err.println("tablescan " + name + "-worker: " + e.getMessage());
            runtime.close();
            return 2;
        }
        metrics.ifPresent(m -> LOG.info("{} worker: metrics and health on {}", name, m.where()));
        // Graceful stop: commit the batch in hand, leave the group, exit.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("{} worker stopping", name);
            runtime.close();
            metrics.ifPresent(MetricsServer::close);
        }, name + "-stop"));
        runtime.run();
        return 0;
    }
}
