package io.tablescan.cli;

import io.tablescan.ledger.ScanLedger;
import io.tablescan.ledger.page.ScanBoard;
import io.tablescan.ledger.page.StatusPage;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerLauncher;
import io.tablescan.runtime.WorkerSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "ledger", mixinStandardHelpOptions = true,
        description = "Runs the scan ledger (Kafka Streams) until SIGTERM: folds every worker's scan events into one "
                + "exact status per scan, published to the compacted topic <namespace>.scans. Run one or more "
                + "per cluster; `copy` and `demo` run their own.")
final class LedgerCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() throws InterruptedException {
        int partitions = StartCommand.topicPartitions(env);
        Optional<Short> replication = StartCommand.topicReplication(env);
        try {
            MetricsServer.port(env);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        KafkaSettings kafka = cluster.settings();
        try (Admin admin = kafka.newAdmin()) {
            Topics.ensure(admin, kafka.namespace(), partitions, replication, Duration.ofSeconds(60));
        }
        ScanLedger ledger = ScanLedger.start(kafka);
        Logger log = LoggerFactory.getLogger(LedgerCommand.class);
        // The status page on the metrics port: every scan of the namespace, as the ledger published it.
        ScanBoard board = ScanBoard.follow(kafka);
        Optional<String> token = Optional.ofNullable(env.get(StatusPage.TOKEN)).filter(t -> !t.isBlank());
        StatusPage page = new StatusPage(board, kafka.namespace().name(), StatusPage.Actions.on(kafka), token);
        CountDownLatch stopped;
        try {
            stopped = WorkerLauncher.serve("ledger", "ledger", ledger, () -> {
                board.close();
                ledger.close();
            }, log, page::serveOn);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        log.info("ledger: status page at / on the metrics port ({})", token.isPresent()
                ? "cancel, throttle and retry with the token of " + StatusPage.TOKEN : "read-only: " + StatusPage.TOKEN + " not set");
        if (ledger.awaitRunning(Duration.ofMinutes(2))) {
            log.info("ledger running on {}", kafka.bootstrapServers());
        }
        stopped.await();
        return 0;
    }
}
