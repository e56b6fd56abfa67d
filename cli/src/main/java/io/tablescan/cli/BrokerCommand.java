package io.tablescan.cli;

import io.tablescan.local.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Runs a single-node Kafka broker (KRaft) on 127.0.0.1 in the foreground, for development "
                + "without Docker. Ctrl-C stops it.")
final class BrokerCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "9092", description = "Client port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--dir", description = "Data directory, kept across restarts (default: a temporary one, deleted on exit).")
    Path dir;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 1 || port > 65535) {
            throw new UserError(UserError.USAGE, "--port must be 1 to 65535");
        }
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(port, dir);
        } catch (IllegalStateException e) {
            throw new UserError(UserError.UNREACHABLE, "cannot start the broker: " + e.getMessage());
        }
        System.out.println("Kafka broker listening on " + broker.bootstrapServers() + " (data in "
                + broker.dataDirectory() + "); Ctrl-C stops it");
        new CountDownLatch(1).await(); // until Ctrl-C: the broker's shutdown hook stops it
        return 0;
    }
}
