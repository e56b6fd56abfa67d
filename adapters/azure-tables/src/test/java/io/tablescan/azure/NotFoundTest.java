package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.tablescan.spi.TableStoreException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Only the table service's own 404, which names its error code, means a table or row is not there; a 404 without
 * one (a wrong path in the endpoint, a proxy) is a failure that names the endpoint, never taken for a missing table
 * or a row already gone.
 */
class NotFoundTest {
    private static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private HttpServer server;

    /** A server on loopback that answers every request 404, with the error code {@code code} when not null. */
    private AzureTableStore answering404(String code) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = code == null ? new byte[0] : ("{\"odata.error\":{\"code\":\"" + code
                    + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"not there\"}}}").getBytes(StandardCharsets.UTF_8);
            if (code != null) {
                exchange.getResponseHeaders().add("x-ms-error-code", code);
            }
            exchange.sendResponseHeaders(404, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return AzureTableStore.fromConnectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                + "AccountKey=" + KEY + ";TableEndpoint=" + endpoint() + ";");
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
    void aBare404IsNoMissingTableButAnEndpointToCheck() throws Exception {
        AzureTableStore store = answering404(null);

        assertThatThrownBy(() -> store.tableExists("t")).isInstanceOfSatisfying(TableStoreException.class, e -> {
            assertThat(e.status()).isEqualTo(404);
            assertThat(e.getMessage()).isEqualTo("the endpoint " + endpoint() + " answered HTTP 404 without a table "
                    + "service error code: check the endpoint URL (a wrong path, or a proxy, answers so)")
                    .doesNotContain(KEY);
        });
    }

    @Test
    void aBare404IsNoRowGone() throws Exception {
        AzureTableStore store = answering404(null);

        assertThatThrownBy(() -> store.read("t", "p", "r")).isInstanceOf(TableStoreException.class)
                .hasMessage("HTTP 404 on table t");
        assertThatThrownBy(() -> store.delete("t", "p", "r")).isInstanceOf(TableStoreException.class)
                .hasMessage("HTTP 404 on table t");
    }

    @Test
    void theServicesOwn404SaysTheTableOrRowIsNotThere() throws Exception {
        AzureTableStore store = answering404("TableNotFound");
        assertThat(store.tableExists("t")).isFalse();
        stop();

        AzureTableStore rows = answering404("ResourceNotFound");
        assertThat(rows.read("t", "p", "r")).as("a row that is gone").isNull();
        assertThat(rows.delete("t", "p", "r")).as("a row already gone").isFalse();
    }
}
