package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.data.tables.TableServiceClientBuilder;
import com.sun.net.httpserver.HttpServer;
import io.netty.handler.ssl.SslContextBuilder;
import io.tablescan.azure.AzureTableStore;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.AzuriteServer;
import io.tablescan.runner.TableComparer;
import io.tablescan.spi.TableStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Microsoft Entra ID sign-in, end to end on this machine: Azurite over HTTPS accepting bearer tokens, and a
 * managed identity endpoint (the App Service kind, IDENTITY_ENDPOINT) on loopback that hands out tokens.
 * The copy names only the account's endpoint; DefaultAzureCredential finds the managed identity.
 */
class EntraIdIT {
    private static final String PASSWORD = "tablescan-test";

    @Test
    void copiesWithAnEndpointAloneSignedInByManagedIdentity() throws Exception {
        Path dir = Files.createTempDirectory("tablescan-entra-");
        Path pkcs12 = dir.resolve("azurite.p12");
        Path pem = dir.resolve("azurite.pem");
        Path trust = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "azurite", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", pkcs12.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "azurite", "-keystore", pkcs12.toString(), "-storepass", PASSWORD,
                "-file", pem.toString());
        keytool("-importcert", "-noprompt", "-alias", "azurite", "-file", pem.toString(), "-storetype", "PKCS12",
                "-keystore", trust.toString(), "-storepass", PASSWORD);

        String token = accessToken();
        AtomicInteger tokenRequests = new AtomicInteger();
        AtomicReference<String> resource = new AtomicReference<>();
        HttpServer identity = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        identity.createContext("/msi/token", exchange -> {
            boolean authorised = "identity-header".equals(exchange.getRequestHeaders().getFirst("X-IDENTITY-HEADER"));
            tokenRequests.incrementAndGet();
            resource.set(exchange.getRequestURI().getQuery());
            byte[] body = ("{\"access_token\":\"" + token + "\",\"expires_on\":\"" + (System.currentTimeMillis() / 1000 + 3600)
                    + "\",\"resource\":\"https://storage.azure.com\",\"token_type\":\"Bearer\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(authorised ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        identity.start();
        try (AzuriteServer azurite = AzuriteServer.startHttpsWithOAuth(pkcs12, PASSWORD);
                ChildProcesses children = new ChildProcesses("entra-id")) {
            // Set-up and checks sign in with the account key, over the same HTTPS.
            TableStore store = AzureTableStore.build(new TableServiceClientBuilder()
                    .connectionString(azurite.connectionString())
                    .httpClient(new NettyAsyncHttpClientBuilder(reactor.netty.http.client.HttpClient.create()
                            .secure(ssl -> ssl.sslContext(sslContext(pem)))).build()));
            SampleTable.write(store, "entrasource", SampleTable.rows(2_000), 8);

            Map<String, String> env = Map.of(
                    "TABLESCAN_ACCOUNT_ENTRA_ENDPOINT", azurite.endpoint(),
                    "IDENTITY_ENDPOINT", "http://127.0.0.1:" + identity.getAddress().getPort() + "/msi/token",
                    "IDENTITY_HEADER", "identity-header",
                    "JAVA_TOOL_OPTIONS", "-Djavax.net.ssl.trustStore=" + trust + " -Djavax.net.ssl.trustStorePassword="
                            + PASSWORD + " -Djavax.net.ssl.trustStoreType=PKCS12 " + CredentialsIT.TOOL_LOGGING,
                    "TABLESCAN_LOG_LEVEL", "DEBUG", "TABLESCAN_AZURE_LOG_LEVEL", "DEBUG",
                    "AZURE_HTTP_LOG_DETAIL_LEVEL", "BODY_AND_HEADERS");
            Process copy = children.start("copy", env, "copy", "--source-account", "entra", "--source-table",
                    "entrasource", "--dest-account", "entra", "--dest-table", "entracopy", "--page-size", "500",
                    "--kafka", LocalServices.broker().bootstrapServers());
            assertThat(copy.waitFor(3, TimeUnit.MINUTES)).isTrue();
            String log = children.output("copy");
            assertThat(copy.exitValue()).as(log).isZero();
            assertThat(tokenRequests.get()).as("tokens fetched from the managed identity endpoint").isPositive();
            assertThat(resource.get()).contains("storage.azure.com");
            TableComparer.Result check = TableComparer.compare(store, "entrasource", store, "entracopy");
            assertThat(check.equal()).as(check.examples().toString()).isTrue();
            assertThat(log).as("the SDK logs at DEBUG").contains("DEBUG");
            assertThat(log).as("the access token is never logged, whole or in part")
                    .doesNotContain(token.substring(token.indexOf('.') + 1))
                    .doesNotContain(token.substring(0, token.lastIndexOf('.')));

            // An identity the endpoint refuses: one line, exit 6 (denied), at once rather than after retries.
            Map<String, String> refused = new java.util.HashMap<>(env);
            refused.put("IDENTITY_HEADER", "wrong");
            refused.put("TABLESCAN_LOG_LEVEL", "WARN");
            refused.put("TABLESCAN_AZURE_LOG_LEVEL", "INFO"); // the SDK's DEBUG lines carry stack traces of their own
            Process denied = children.start("denied", refused, "copy", "--source-account", "entra", "--source-table",
                    "entrasource", "--dest-account", "entra", "--dest-table", "entracopy2",
                    "--kafka", LocalServices.broker().bootstrapServers());
            assertThat(denied.waitFor(2, TimeUnit.MINUTES)).isTrue();
            String deniedLog = children.output("denied");
            assertThat(denied.exitValue()).as(deniedLog).isEqualTo(UserError.DENIED);
            assertThat(deniedLog).contains("Entra ID sign-in failed").doesNotContain("\tat ");
        } finally {
            identity.stop(0);
        }
    }

    /** An unsigned token with the claims Azurite checks: issuer, audience and lifetime. */
    private static String accessToken() {
        long now = System.currentTimeMillis() / 1000;
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"typ\":\"JWT\",\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"aud\":\"https://storage.azure.com\",\"iss\":\"https://sts.windows.net/"
                + "00000000-0000-0000-0000-000000000000/\",\"iat\":" + (now - 60) + ",\"nbf\":" + (now - 60) + ",\"exp\":"
                + (now + 3600) + ",\"oid\":\"tablescan-test\"}").getBytes(StandardCharsets.UTF_8));
        return header + "." + claims + "." + b64.encodeToString("unsigned".getBytes(StandardCharsets.UTF_8));
    }

    private static io.netty.handler.ssl.SslContext sslContext(Path pem) {
        try {
            return SslContextBuilder.forClient().trustManager(pem.toFile()).build();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void keytool(String... args) throws Exception {
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        List<String> command = new java.util.ArrayList<>(List.of(java.resolveSibling("keytool").toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("keytool " + args[0] + ": " + output).isZero();
    }
}
