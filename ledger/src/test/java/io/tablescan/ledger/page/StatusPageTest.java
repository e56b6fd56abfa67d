package io.tablescan.ledger.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.metrics.Health;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanControl;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.SinkRef;
import io.tablescan.schema.TableRef;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The page's JSON and its actions over HTTP, on a board fed directly: what is shown, what is refused, what never shows. */
class StatusPageTest {
    private static final String SECRET = "AccountKey=c2VjcmV0LWtleS1ub3QtcmVhbA==";
    private static final String SIGNATURE = "sig=c2lnbmF0dXJlLW5vdC1yZWFs";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ScanBoard board = new ScanBoard();
    private final List<String> done = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private MetricsServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        http.close();
    }

    @Test
    void listsEveryScanWithItsCapsAndFailuresAndNeverASinksOptionsOrAFilter() throws Exception {
        serve(Optional.empty());
        board.apply(status("scan-a", ScanState.RUNNING, 500, 1_000));
        board.apply(status("scan-a", ScanState.RUNNING, 900, 2_000));
        board.apply(status("scan-b", ScanState.COMPLETED_WITH_FAILURES, 40, 500));
        board.apply(ScanControl.newBuilder().setScanId("scan-a").setCancelled(false).setTimeMillis(0).setThrottle(true)
                .setMaxRate(250L).setMaxWriteRate(null).build());

        JsonNode all = get("/api/scans", 200);
        assertThat(all.get("actions").asBoolean()).as("no token: read-only").isFalse();
        assertThat(all.get("scans")).extracting(s -> s.get("id").asText()).containsExactly("scan-b", "scan-a");
        JsonNode a = all.get("scans").get(1);
        assertThat(a.get("rows").asLong()).isEqualTo(900);
        assertThat(a.get("caps").get("read").asLong()).as("the throttle's cap, not the spec's").isEqualTo(250);
        assertThat(a.get("caps").get("write").asLong()).as("the spec's").isEqualTo(100);
        assertThat(a.get("target").asText()).isEqualTo("sink example dest/orders");
        assertThat(all.get("accounts").get(0).get("account").asText()).isEqualTo("src");

        JsonNode b = get("/api/scans/scan-b", 200);
        assertThat(b.get("errors").get(0).asText()).isEqualTo("403 Forbidden: a batch of 100 rows");
        assertThat(b.get("errors").get(1).asText()).as("a library's message quoting a signed URL, masked")
                .isEqualTo("IllegalArgumentException: Illegal character in query at index 9: https://x/?sig=REDACTED");
        assertThat(b.get("target").asText()).isEqualTo("sink example dest/https://x/?sig=REDACTED");
        assertThat(b.get("filtered").asBoolean()).isTrue();
        JsonNode points = get("/api/scans/scan-a", 200).get("points");
        assertThat(points).hasSize(2);
        assertThat(points.get(1).get(1).asLong()).isEqualTo(900);

        for (String path : List.of("/api/scans", "/api/scans/scan-a", "/api/scans/scan-b")) {
            assertThat(text(path)).doesNotContain(SECRET).doesNotContain("c2VjcmV0").doesNotContain("c2lnbmF0dXJl");
        }
        assertThat(get("/api/scans?limit=0", 400).get("error").asText()).contains("1 to 10,000");
        JsonNode one = get("/api/scans?limit=1", 200);
        assertThat(one.get("scans")).extracting(s -> s.get("id").asText()).containsExactly("scan-b");
        assertThat(one.get("total").asInt()).isEqualTo(2);
        assertThat(get("/api/scans/nope", 404).get("error").asText()).isEqualTo("no scan nope in namespace test");
        assertThat(text("/")).contains("<title>tablescan status</title>");
        assertThat(send("/api/scans", "POST", null, "{}").statusCode()).isEqualTo(405);
        assertThat(send("/", "POST", null, "{}").statusCode()).isEqualTo(405);
        assertThat(send("/nothing", "GET", null, null).statusCode()).isEqualTo(404);
        assertThat(send("/api/scans", "HEAD", null, null).statusCode()).isEqualTo(200);
        assertThat(send("/api/scans/scan-a/cancel", "POST", null, "{}").statusCode())
                .as("no token given to the ledger: no action").isEqualTo(403);
        assertThat(done).isEmpty();
    }

    @Test
    void actionsNeedTheTokenAndAnEndedScanIsNotCancelled() throws Exception {
        serve(Optional.of("the-token-of-this-test"));
        board.apply(status("scan-a", ScanState.RUNNING, 10, 1_000));
        board.apply(status("scan-b", ScanState.COMPLETED, 40, 1_000));
        assertThat(get("/api/scans", 200).get("actions").asBoolean()).isTrue();

        assertThat(send("/api/scans/scan-a/cancel", "POST", null, "").statusCode()).isEqualTo(401);
        assertThat(send("/api/scans/scan-a/cancel", "POST", "Bearer not-the-token", "").statusCode()).isEqualTo(401);
        assertThat(send("/api/scans/scan-a/cancel", "GET", "Bearer the-token-of-this-test", "").statusCode()).isEqualTo(405);
        assertThat(done).isEmpty();

        for (String body : List.of("{\"maxRate\": -5}", "{\"maxRate\": 12.5}", "not json", "[1]", "{}",
                "{\"maxRate\": 10} trailing")) {
            assertThat(send("/api/scans/scan-a/throttle", "POST", "Bearer the-token-of-this-test", body).statusCode())
                    .as(body).isEqualTo(400);
        }
        assertThat(send("/api/scans/scan-a/throttle", "POST", "Bearer the-token-of-this-test", "{\"maxRate\": 50}").statusCode())
                .isEqualTo(202);
        assertThat(send("/api/scans/scan-a/cancel", "POST", "Bearer the-token-of-this-test", "").statusCode()).isEqualTo(202);
        assertThat(send("/api/scans/scan-a/retry", "POST", "Bearer the-token-of-this-test", "").statusCode()).isEqualTo(202);
        assertThat(send("/api/scans/scan-b/cancel", "POST", "Bearer the-token-of-this-test", "").statusCode()).as("ended").isEqualTo(409);
        assertThat(done).containsExactly("throttle scan-a 50 null", "cancel scan-a", "retry scan-a");
    }

    @Test
    void aTokenThatCouldBeGuessedIsRefusedAndTheLimitIsBounded() {
        assertThatThrownBy(() -> StatusPage.checked(Optional.of("short"))).hasMessageContaining("at least 16 characters");
        assertThatThrownBy(() -> StatusPage.checked(Optional.of("replace-with-a-long-random-token")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(StatusPage.checked(Optional.of("  "))).isEmpty();
        assertThat(StatusPage.limit(null)).isEqualTo(StatusPage.LIMIT);
        assertThat(StatusPage.limit("limit=3")).isEqualTo(3);
        assertThat(StatusPage.limit("x=1&limit=10000")).isEqualTo(StatusPage.MAX_LIMIT);
        for (String bad : List.of("limit=0", "limit=10001", "limit=123456789012", "limit=abc", "limit=", "limit=-1")) {
            assertThatThrownBy(() -> StatusPage.limit(bad)).as(bad).hasMessage("limit is a number of scans from 1 to 10,000");
        }
        assertThatThrownBy(() -> StatusPage.checked(Optional.of("replace-with-a-long-random-token")))
                .hasMessageContaining("placeholder");
    }

    private void serve(Optional<String> token) throws Exception {
        server = MetricsServer.start("127.0.0.1", 0, Health.all(List.of()));
        new StatusPage(board, "test", new StatusPage.Actions() {
            @Override
            public void cancel(String scanId) {
                done.add("cancel " + scanId);
            }

            @Override
            public void throttle(String scanId, Long maxRate, Long maxWriteRate) {
                done.add("throttle " + scanId + " " + maxRate + " " + maxWriteRate);
            }

            @Override
            public int retry(String scanId) {
                done.add("retry " + scanId);
                return 2;
            }
        }, token).serveOn(server);
    }

    private static ScanStatus status(String id, ScanState state, long rows, long millis) {
        ScanSpec spec = ScanSpec.newBuilder().setScanId(id).setSource(new TableRef("src", "orders")).setPageSize(100)
                .setPageBudget(1).setCreatedAtMillis(0).setRowFilter("PartitionKey eq '" + SECRET + "'")
                .setSink(new SinkRef("example", "dest", id.equals("scan-b") ? "https://x/?" + SIGNATURE : "orders",
                        Map.of("connection", SECRET)))
                .setLimits(Map.of("read", 1_000L, "write", 100L)).build();
        ItemCounts items = new ItemCounts(1, 2, 3);
        ItemCounts none = new ItemCounts(0, 0, 0);
        return ScanStatus.newBuilder().setScanId(id).setSpec(spec).setState(state).setEmitted(items).setDone(items)
                .setFailed(none).setSkipped(none).setRowsRead(rows).setRowsWritten(rows).setRequests(3).setMaxDepth(1)
                .setStartMillis(id.equals("scan-a") ? 0 : 10).setLastEventMillis(millis).setRowsPerSecond(1)
                .setRateWindowStartMillis(0).setRateWindowStartRows(0)
                .setErrors(state == ScanState.COMPLETED_WITH_FAILURES ? List.of("403 Forbidden: a batch of 100 rows",
                        "IllegalArgumentException: Illegal character in query at index 9: https://x/?" + SIGNATURE)
                        : List.of())
                .build();
    }

    private JsonNode get(String path, int status) throws Exception {
        HttpResponse<String> response = send(path, "GET", null, null);
        assertThat(response.statusCode()).as(path).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    private String text(String path) throws Exception {
        return send(path, "GET", null, null).body();
    }

    private HttpResponse<String> send(String path, String method, String authorization, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
