package io.tablescan.it;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.sas.AccountSasPermission;
import com.azure.storage.common.sas.AccountSasResourceType;
import com.azure.storage.common.sas.AccountSasService;
import com.azure.storage.common.sas.AccountSasSignatureValues;
import io.tablescan.backup.BlobStore;
import io.tablescan.ledger.page.StatusPage;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One cluster for the cluster tests of a test JVM (a failsafe fork): a broker, a ledger and two processes of every
 * worker kind ({@link CrashIT.Cluster}), started when a test first asks for it and stopped by {@link #stop()} once its
 * users are done ({@link ClusterIT} runs them all), or else when the fork's JVM exits.
 * Starting one costs about eight JVMs; a test gets it as a parameter of type {@code CrashIT.Cluster} in a class
 * with {@code @ExtendWith(SharedCluster.class)}.
 *
 * <p>Its environment serves every user: the Blob account by key ({@code backups}) and by SAS token ({@code sasblob}),
 * and every process logs at DEBUG with the SDK's HTTP headers, so that a test may look for secrets in any process's
 * output. Its users ({@link ClusterIT}'s nested classes; two of them at once) tell their scans apart by their own
 * tables, and leave it whole: a test that kills a worker restarts it, and a worker found dead when the next test asks
 * is restarted before that test gets the cluster.
 */
final class SharedCluster implements ParameterResolver {
    /** The folder of the processes' logs: one a fork, as two forks run at once. */
    static final String NAME = "shared-cluster-" + ProcessHandle.current().pid();
    static final String SAS_TOKEN = "TABLESCAN_ACCOUNT_SASBLOB_SAS_TOKEN";
    private static CrashIT.Cluster started;

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == CrashIT.Cluster.class;
    }

    @Override
    public CrashIT.Cluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster();
    }

    /**
     * The fork's cluster, started on first use and stopped when the JVM exits. Not in the root context's store:
     * failsafe runs each test class of a fork as a launcher request of its own, so the root context closes after
     * every class (seen: the cluster was started again for the next class).
     */
    static synchronized CrashIT.Cluster cluster() {
        if (started == null) {
            CrashIT.Cluster cluster = start(); // a start that fails is tried again by the next test
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "shared-cluster-stop")); // if not stopped
            started = cluster;
        }
        started.restartDeadWorkers();
        return started;
    }

    /** Stops the fork's cluster now, not when the fork exits (its users are done); a test that asks after starts one. */
    static synchronized void stop() {
        if (started != null) {
            started.close();
            started = null;
        }
    }

    /** The folder where every process of the cluster, and every command a test ran on it, writes its output. */
    static Path logs() {
        return Path.of("target", "child-logs", NAME);
    }

    private static CrashIT.Cluster start() {
        String blob = AzuriteBlob.shared().connectionString();
        String sas = new BlobServiceClientBuilder().connectionString(blob).serviceVersion(BlobStore.SERVICE_VERSION)
                .buildClient().generateAccountSas(new AccountSasSignatureValues(OffsetDateTime.now().plusDays(1),
                        AccountSasPermission.parse("rwdlc"), AccountSasService.parse("b"),
                        AccountSasResourceType.parse("sco")));
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_BACKUPS_CONNECTION_STRING", blob,
                "TABLESCAN_ACCOUNT_SASBLOB_BLOB_ENDPOINT", AzuriteBlob.shared().endpoint(), SAS_TOKEN, sas,
                "TABLESCAN_LOG_LEVEL", "DEBUG", "TABLESCAN_AZURE_LOG_LEVEL", "DEBUG",
                "AZURE_HTTP_LOG_DETAIL_LEVEL", "HEADERS", "JAVA_TOOL_OPTIONS", CredentialsIT.TOOL_LOGGING,
                StatusPage.TOKEN, "ui-" + java.util.UUID.randomUUID()); // the ledger's page takes actions with it
        try {
            return new CrashIT.Cluster(NAME, 2, env);
        } catch (Exception e) {
            throw new IllegalStateException("the shared cluster did not start", e);
        }
    }

}
