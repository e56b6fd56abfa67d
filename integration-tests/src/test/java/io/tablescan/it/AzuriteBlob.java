package io.tablescan.it;

import io.tablescan.local.AzuriteServer;
import io.tablescan.local.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Azurite's Blob service (the same npm package as the table service) on a free loopback port, in memory. */
public final class AzuriteBlob {
    private static AzuriteBlob started;
    private final Process process;
    private final int port;

    private AzuriteBlob(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** One for all the tests of a JVM, stopped when it exits. */
    public static synchronized AzuriteBlob shared() {
        if (started == null) {
            started = start();
        }
        return started;
    }

    private static AzuriteBlob start() {
        Path script = AzuriteServer.toolsFolder().resolve("node_modules/azurite/dist/src/blob/main.js");
        int port = FreePorts.find();
        try {
            Path log = Files.createTempFile("azurite-blob-", ".log");
            log.toFile().deleteOnExit();
            Process process = new ProcessBuilder(List.of("node", script.toString(), "--blobHost", "127.0.0.1",
                    "--blobPort", Integer.toString(port), "--inMemoryPersistence",
                    "--disableTelemetry", "--silent")).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "azurite-blob-stop"));
            if (!FreePorts.await(() -> FreePorts.accepts(port), Duration.ofSeconds(60), process::isAlive)) {
                process.destroyForcibly();
                throw new IllegalStateException("Azurite's Blob service did not start on port " + port);
            }
            return new AzuriteBlob(process, port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start Azurite's Blob service: " + e.getMessage());
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + port + "/" + AzuriteServer.ACCOUNT;
    }

    public String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=" + AzuriteServer.ACCOUNT + ";AccountKey="
                + LocalServices.azurite().accountKey() + ";BlobEndpoint=http://127.0.0.1:" + port + "/"
                + AzuriteServer.ACCOUNT + ";";
    }
}
