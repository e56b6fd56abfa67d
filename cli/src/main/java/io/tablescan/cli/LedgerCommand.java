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
                + "per cluster; `copy` and `demo` run their own. Serves a status page of every scan on its metrics "
                + "port (TABLESCAN_METRICS_PORT); TABLESCAN_UI_TOKEN lets the page cancel, throttle and retry.")
final class LedgerCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() throws InterruptedException {
        int partitions = StartCommand.topicPartitions(env);
        Optional<Short> replication = StartCommand.topicReplication(env);
        Optional<String> token = Optional.ofNullable(env.get(StatusPage.TOKEN));
        boolean served; // mistakes are reported before connecting
        try {
            served = MetricsServer.port(env).isPresent();
            token = StatusPage.checked(token);
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
        ScanBoard board = served ? ScanBoard.follow(kafka) : new ScanBoard();
        StatusPage page = new StatusPage(board, kafka.namespace().name(), StatusPage.Actions.on(kafka), token);
        if (!served) {
            log.info("ledger: no status page ({} is off)", MetricsServer.PORT);
        }
        CountDownLatch stopped;
        try {
            stopped = WorkerLauncher.serve("ledger", "ledger", ledger, () -> {
                board.close();
                ledger.close();
            }, log, server -> {
                page.serveOn(server);
                log.info("ledger: status page at http://localhost:{}/ ({})", server.port(), page.acts()
                        ? "cancel, throttle and retry with the token in " + StatusPage.TOKEN
                        : "read-only: " + StatusPage.TOKEN + " is not set");
            });
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        if (ledger.awaitRunning(Duration.ofMinutes(2))) {
            log.info("ledger running on {}", kafka.bootstrapServers());
        }
        stopped.await();
        return 0;
    }
}
