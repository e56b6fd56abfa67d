package io.tablescan.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tablescan.local.AzuriteServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * A reverse proxy in front of Azurite's table endpoint that counts, per table, the rows its queries returned: what
 * the source served, whatever the tool's own counters say (they count only committed work); it can also refuse a
 * table's requests (403), as the service refuses a key that may not read it; and when each row delete was answered.
 * Loopback only.
 */
final class CountingProxy implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "transfer-encoding", "keep-alive");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final AzuriteServer azurite;
    private final URI origin;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, LongAdder> rows = new ConcurrentHashMap<>();
    /** When each single-row delete was answered, in time order. */
    List<Long> deletes() {
        return deletes.stream().sorted().toList();
    }

    /** Every counted page: when it was answered (ms since the epoch) and its rows. */
    private final java.util.Queue<long[]> pages = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** When each single-row delete (DELETE of an entity) was answered, ms since the epoch. */
    private final java.util.Queue<Long> deletes = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Tables whose requests are refused, each with how many more are let through first. */
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> refused = new ConcurrentHashMap<>();

    private CountingProxy(AzuriteServer azurite) throws IOException {
        this.azurite = azurite;
        URI endpoint = URI.create(azurite.endpoint());
        this.origin = URI.create(endpoint.getScheme() + "://" + endpoint.getAuthority());
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::forward);
        server.start();
    }

    static CountingProxy start(AzuriteServer azurite) throws IOException {
        return new CountingProxy(azurite);
    }

    /** Azurite's connection string, with the table endpoint on this proxy. */
    String connectionString() {
        return azurite.connectionString().replace(origin.toString(),
                "http://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * After its next {@code first} requests (a command's first checks), every request of {@code table}'s rows is
     * refused as the service refuses a key that may not read it.
     */
    void refuse(String table, int first) {
        refused.put(table, new java.util.concurrent.atomic.AtomicInteger(first));
    }

    /** Rows the queries of {@code table} returned so far. */
    long rowsRead(String table) {
        LongAdder n = rows.get(table);
        return n == null ? 0 : n.sum();
    }

    /** Every query page of a table answered so far, as {time in ms, rows}, in time order. */
    List<long[]> pages() {
        return pages.stream().sorted((a, b) -> Long.compare(a[0], b[0])).toList();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String[] path = exchange.getRequestURI().getPath().split("/");
            var letThrough = path.length >= 3 ? refused.get(path[2].replaceFirst("\\(.*$", "")) : null;
            if (letThrough != null && letThrough.getAndDecrement() <= 0) {
                byte[] error = ("{\"odata.error\":{\"code\":\"AuthorizationFailure\",\"message\":{\"lang\":"
                        + "\"en-US\",\"value\":\"This request is not authorized to perform this operation.\"}}}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.getResponseHeaders().put("Content-Type", List.of("application/json;odata=minimalmetadata"));
                exchange.sendResponseHeaders(403, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(origin.resolve(exchange.getRequestURI().toString()))
                    .timeout(Duration.ofSeconds(30)) // a hung answer fails, as the service's would: the tool retries
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<byte[]> response;
            try {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            count(exchange, response);
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
        }
    }

    /** A query of a table: GET /account/table or /account/table(), answered with {"value": [rows]}. */
    private void count(HttpExchange exchange, HttpResponse<byte[]> response) {
        String[] path = exchange.getRequestURI().getPath().split("/");
        if (exchange.getRequestMethod().equals("DELETE") && path.length == 3 && path[2].contains("(PartitionKey=")) {
            deletes.add(System.currentTimeMillis());
            return;
        }
        if (!exchange.getRequestMethod().equals("GET") || response.statusCode() != 200 || path.length != 3) {
            return;
        }
        String table = path[2].replaceFirst("\\(.*$", "");
        try {
            JsonNode value = JSON.readTree(response.body()).get("value");
            if (value != null && value.isArray() && !table.equals("Tables")) {
                rows.computeIfAbsent(table, t -> new LongAdder()).add(value.size());
                pages.add(new long[] {System.currentTimeMillis(), value.size()});
            }
        } catch (IOException e) {
            // not JSON: not a query's page
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
