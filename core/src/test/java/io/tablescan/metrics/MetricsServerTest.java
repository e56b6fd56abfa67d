package io.tablescan.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Several workers on one machine, started as the README shows (no TABLESCAN_METRICS_PORT): the second finds
 * the default port taken by the first and serves on a free one; a port set explicitly must be free. 9400 itself
 * may be busy on a build machine, so the default port is one this test picks.
 */
class MetricsServerTest {
    static final Health UP = new Health() {
        @Override
        public boolean live() {
            return true;
        }

        @Override
        public boolean ready() {
            return true;
        }
    };
    static final Map<String, String> UNSET = Map.of(MetricsServer.HOST, "127.0.0.1");

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static int ready(MetricsServer server) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/health/ready")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void aSecondWorkerWithoutAnExplicitPortServesOnAFreeOneWhenTheDefaultIsTaken() throws Exception {
        int defaultPort = freePort();
        try (MetricsServer first = MetricsServer.fromEnvironment(UNSET, UP, defaultPort).orElseThrow();
                MetricsServer second = MetricsServer.fromEnvironment(UNSET, UP, defaultPort).orElseThrow()) {
            assertThat(first.port()).isEqualTo(defaultPort);
            assertThat(second.port()).isNotEqualTo(defaultPort).isPositive();
            assertThat(first.where()).isEqualTo("port " + defaultPort);
            assertThat(second.where()).startsWith("port " + second.port() + " (" + defaultPort + " is taken")
                    .doesNotContain("\n");
            assertThat(ready(first)).isEqualTo(200);
            assertThat(ready(second)).isEqualTo(200);
        }
    }

    @Test
    void anExplicitPortThatIsTakenIsOneClearError() throws Exception {
        int port = freePort();
        Map<String, String> explicit = Map.of(MetricsServer.HOST, "127.0.0.1", MetricsServer.PORT, Integer.toString(port));
        try (MetricsServer first = MetricsServer.fromEnvironment(explicit, UP, MetricsServer.DEFAULT_PORT).orElseThrow()) {
            assertThat(first.port()).isEqualTo(port);
            assertThatThrownBy(() -> MetricsServer.fromEnvironment(explicit, UP, MetricsServer.DEFAULT_PORT))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot listen on 127.0.0.1:" + port)
                    .hasMessageContaining(MetricsServer.PORT)
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void offAndZeroStillMeanWhatTheySay() throws Exception {
        assertThat(MetricsServer.fromEnvironment(Map.of(MetricsServer.PORT, "off"), UP, freePort())).isEmpty();
        try (MetricsServer any = MetricsServer.fromEnvironment(Map.of(MetricsServer.HOST, "127.0.0.1",
                MetricsServer.PORT, "0"), UP, MetricsServer.DEFAULT_PORT).orElseThrow()) {
            assertThat(ready(any)).isEqualTo(200);
        }
    }
}
