package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Only the Blob service's own 404, which names its error code, means a container or blob is not there; a 404 without
 * one (a wrong path in the endpoint, a proxy) is one line naming the endpoint to check.
 */
class BlobNotFoundTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private HttpServer server;

    /** A store on a loopback server that answers every request 404, with the error code {@code code} when not null. */
    private BlobStore answering404(String code) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (code != null) {
                exchange.getResponseHeaders().add("x-ms-error-code", code);
            }
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
        return BlobStore.fromConnectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                + KEY + ";BlobEndpoint=" + endpoint() + ";", "backups", "p");
    }

    private String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/devstoreaccount1";
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aBare404IsNoMissingContainerButAnEndpointToCheck() throws Exception {
        BlobStore store = answering404(null);

        assertThatThrownBy(store::containerExists).isInstanceOfSatisfying(BackupException.class, e -> {
            assertThat(e.kind()).isEqualTo(BackupException.Kind.UNREACHABLE);
            assertThat(e.getMessage()).isEqualTo("the Blob endpoint " + endpoint() + " answered HTTP 404 without a "
                    + "Blob service error code for container backups under p/: check the endpoint URL (a wrong path, "
                    + "or a proxy, answers so)").doesNotContain(KEY);
        });
        assertThatThrownBy(() -> store.exists("index.json")).isInstanceOf(BackupException.class)
                .hasMessageContaining("without a Blob service error code");
    }

    @Test
    void theServicesOwn404SaysTheContainerIsNotThere() throws Exception {
        assertThat(answering404("ContainerNotFound").containerExists()).isFalse();
    }
}
