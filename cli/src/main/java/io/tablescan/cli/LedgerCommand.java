package io.tablescan.cli;

import io.tablescan.ledger.ScanLedger;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "ledger", mixinStandardHelpOptions = true,
        description = "Runs the scan ledger (Kafka Streams) until SIGTERM: folds every worker's scan events into one "
                + "exact status per scan, published to the compacted topic <namespace>.scans. Run one or more "
                + "per cluster; `copy` and `demo` run their own.")
final class LedgerCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() throws InterruptedException {
        KafkaSettings kafka = cluster.settings();
        int partitions;
        try {
            partitions = WorkerSettings.positive(System.getenv(), WorkerSettings.TOPIC_PARTITIONS, Topics.DEFAULT_PARTITIONS);
            MetricsServer.port(System.getenv());
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        try (Admin admin = Admin.create(kafka.admin())) {
            Topics.ensure(admin, kafka.namespace(), partitions, Optional.empty(), Duration.ofSeconds(60));
        }
        ScanLedger ledger = ScanLedger.start(kafka);
        Optional<MetricsServer> metrics;
        try {
            metrics = MetricsServer.fromEnvironment(System.getenv(), ledger);
        } catch (IllegalArgumentException e) {
            ledger.close();
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        metrics.ifPresent(m -> LoggerFactory.getLogger(LedgerCommand.class).info("ledger: metrics and health on {}",
                m.where())); // several on one host: each says where `tablescan health --port` finds it
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LoggerFactory.getLogger(LedgerCommand.class).info("ledger stopping");
            ledger.close();
            metrics.ifPresent(MetricsServer::close);
            stopped.countDown();
        }, "ledger-stop"));
        if (ledger.awaitRunning(Duration.ofMinutes(2))) {
            LoggerFactory.getLogger(LedgerCommand.class).info("ledger running on {}", kafka.bootstrapServers());
        }
        stopped.await();
        return 0;
    }
}
