package io.tablescan.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Azurite's table service, installed from npm under {@code tools/azurite}, running as a child process on a
 * free loopback port with in-memory storage. Closing it (or the JVM exiting) stops the process.
 */
public final class AzuriteServer implements AutoCloseable {
    /** Azurite's well-known development account; public, not a secret. */
    public static final String ACCOUNT = "devstoreaccount1";
    private static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String SCRIPT = "tools/azurite/node_modules/azurite/dist/src/table/main.js";

    private final Process process;
    private final int port;
    private final String scheme;
    private final Thread hook;

    private AzuriteServer(Process process, int port, String scheme) {
        this.process = process;
        this.port = port;
        this.scheme = scheme;
        this.hook = new Thread(this::stop, "azurite-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    public static AzuriteServer start() {
        return start(List.of(), "http");
    }

    /**
     * Over HTTPS with the certificate and key of a PKCS#12 file, accepting Entra ID bearer tokens (Azurite's
     * basic OAuth checks a token's issuer, audience and lifetime, not its signature).
     */
    public static AzuriteServer startHttpsWithOAuth(Path pkcs12, String password) {
        return start(List.of("--cert", pkcs12.toString(), "--pwd", password, "--oauth", "basic"), "https");
    }

    private static AzuriteServer start(List<String> extraArgs, String scheme) {
        Path script = locate().orElseThrow(() -> new IllegalStateException(
                "Azurite is not installed: run 'npm ci --prefix tools/azurite' in the tablescan folder"));
        int port = FreePorts.find();
        // A young generation of 64 MB instead of V8's default 16: Azurite allocates per entity it filters, and the
        // smaller one's collections cost it about a tenth more CPU over a suite of scans (docs/tests.md).
        List<String> command = new ArrayList<>(List.of("node", "--max-semi-space-size=64", script.toString(),
                "--tableHost", "127.0.0.1", "--tablePort", Integer.toString(port),
                "--inMemoryPersistence", "--skipApiVersionCheck", "--disableTelemetry", "--silent",
                // Azurite closes idle keep-alive connections after 5 s, racing clients that reuse them.
                "--tableKeepAliveTimeout", "120"));
        command.addAll(extraArgs);
        Process process;
        try {
            Path log = Files.createTempFile("azurite-", ".log");
            log.toFile().deleteOnExit();
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start Azurite (is Node.js installed?): " + e.getMessage());
        }
        AzuriteServer server = new AzuriteServer(process, port, scheme);
        if (!FreePorts.await(() -> FreePorts.accepts(port), Duration.ofSeconds(60), process::isAlive)) {
            server.close();
            throw new IllegalStateException("Azurite did not start on port " + port);
        }
        return server;
    }

    /** The folder tools/azurite (Azurite and the JavaScript tables client of the exactness tests). */
    public static Path toolsFolder() {
        Path script = locate().orElseThrow(() -> new IllegalStateException(
                "Azurite is not installed: run 'npm ci --prefix tools/azurite' in the tablescan folder"));
        return script.getParent().getParent().getParent().getParent().getParent().getParent();
    }

    /** tools/azurite relative to the working folder or to the folder this code was loaded from. */
    static Optional<Path> locate() {
        List<Path> roots = new ArrayList<>();
        String home = System.getenv("TABLESCAN_HOME");
        if (home != null) {
            roots.add(Path.of(home));
        }
        roots.add(Path.of("").toAbsolutePath());
        try {
            roots.add(Path.of(AzuriteServer.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            // no code source: only the working folder is searched
        }
        for (Path root : roots) {
            for (Path dir = root; dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(SCRIPT.replace('/', File.separatorChar));
                if (Files.isRegularFile(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** The table endpoint of the development account. */
    public String endpoint() {
        return scheme + "://127.0.0.1:" + port + "/" + ACCOUNT;
    }

    /** The development account's key (public, Azurite's); tests grep for it where secrets must not appear. */
    public String accountKey() {
        return KEY;
    }

    public String connectionString() {
        return "DefaultEndpointsProtocol=" + scheme + ";AccountName=" + ACCOUNT + ";AccountKey=" + KEY
                + ";TableEndpoint=" + endpoint() + ";";
    }

    private void stop() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs anyway
        }
    }
}
