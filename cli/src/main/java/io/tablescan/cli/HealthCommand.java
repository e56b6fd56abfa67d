package io.tablescan.cli;

import io.tablescan.metrics.MetricsServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The container health check: asks a worker or ledger in this container whether it is ready (or live). */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Exits 0 when the worker or ledger on this host answers its readiness (or liveness) endpoint "
                + "with 200, else 1 (the image's HEALTHCHECK).")
final class HealthCommand implements Callable<Integer> {
    @Option(names = "--port", description = "metrics port (default: $" + MetricsServer.PORT + ", else "
            + MetricsServer.DEFAULT_PORT + ")")
    Integer port;

    @Option(names = "--live", description = "check liveness instead of readiness")
    boolean live;

    @Override
    public Integer call() throws InterruptedException {
        if (port != null && (port < 1 || port > 65535)) {
            throw new UserError(UserError.USAGE, "--port must be 1 to 65535");
        }
        int target = port != null ? port : defaultPort();
        URI uri = URI.create("http://127.0.0.1:" + target + (live ? "/health/live" : "/health/ready"));
        // Closed before the exit, which would otherwise wait 300 ms for its idle selector thread (in native code).
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build()) {
            int status = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status == 200) {
                return 0;
            }
            System.err.println("tablescan: " + uri + " answered " + status);
        } catch (IOException e) {
            System.err.println("tablescan: nothing answers at " + uri + " (" + e.getClass().getSimpleName() + ")");
        }
        return UserError.FAILED;
    }

    /** The port this container's worker serves, read as the worker reads it. */
    private static int defaultPort() {
        try {
            return MetricsServer.port(System.getenv()).orElseThrow(() -> new UserError(UserError.USAGE,
                    MetricsServer.PORT + " is off: there is no health endpoint to ask"));
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }
}
