package io.tablescan.runtime;

import io.tablescan.metrics.MetricsServer;
import io.tablescan.sink.SinkPlugins;
import io.tablescan.table.Accounts;
import io.tablescan.table.FaultInjectingTableStore;
import java.util.List;

/**
 * Every environment variable tablescan reads. The README's configuration table, docker-compose.yml and the
 * Kubernetes manifests are checked against this list, so the names stay the same everywhere.
 */
public final class Settings {
    /** Single variables. */
    public static final List<String> NAMES = List.of("KAFKA_BOOTSTRAP_SERVERS",
            WorkerSettings.MAX_IN_FLIGHT, WorkerSettings.READ_IN_FLIGHT, WorkerSettings.MAX_ATTEMPTS, WorkerSettings.TOPIC_PARTITIONS,
            WorkerSettings.TOPIC_REPLICATION, Namespace.VARIABLE, MetricsServer.PORT, MetricsServer.HOST, KafkaWait.VARIABLE,
            FaultInjectingTableStore.RATE, FaultInjectingTableStore.KINDS, SinkPlugins.VARIABLE,
            "TABLESCAN_LOG_LEVEL", "TABLESCAN_LOG_FORMAT", "TABLESCAN_KAFKA_LOG_LEVEL", "TABLESCAN_BROKER_LOG_LEVEL",
            "TABLESCAN_AZURE_LOG_LEVEL",
            "TABLESCAN_DEBUG", "TABLESCAN_JAVA_OPTS", "TABLESCAN_FAST_START", "TABLESCAN_HOME", "TABLESCAN_STATE_DIR",
            "TABLESCAN_UI_TOKEN"); // the ledger's status page: its actions need it

    /** Read by DefaultAzureCredential (Entra ID): service principal, workload identity, managed identity. */
    public static final List<String> AZURE_IDENTITY = List.of("AZURE_CLIENT_ID", "AZURE_TENANT_ID",
            "AZURE_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH", "AZURE_FEDERATED_TOKEN_FILE", "AZURE_AUTHORITY_HOST");

    private Settings() {}

    /** True for every variable tablescan reads: the names above, account credentials, Kafka client settings. */
    public static boolean reads(String variable) {
        return NAMES.contains(variable) || AZURE_IDENTITY.contains(variable) || Accounts.isAccountVariable(variable)
                || KafkaSettings.isClientSetting(variable);
    }
}
