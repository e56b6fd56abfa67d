package io.tablescan.azure;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Table service's REST API over the JDK's HTTP client: one request per call, JSON read and written as a
 * stream of tokens, a batch as one {@code $batch} request (multipart/mixed). No retries here: tablescan
 * retries by itself, knowing the item and its budget.
 */
final class RestTableStore implements TableStore {
    private static final String VERSION = "2019-02-02";
    private static final String ACCEPT = "application/json;odata=minimalmetadata";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern ERROR_CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"|<Code>([^<]+)</Code>");

    /** The clients made so far, held weakly: one no store uses any more is collected, and its thread ends. */
    private static final Set<HttpClient> CLIENTS = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    private final Supplier<HttpClient> newClient;
    private volatile HttpClient http;
    private final String endpoint;
    private final String endpointPath;
    private final Authorization authorization;

    /** {@code newClient} is asked on the first request (see {@link #http()}). */
    RestTableStore(Supplier<HttpClient> newClient, String endpoint, Authorization authorization) {
        this.newClient = newClient;
        this.endpoint = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        String path = URI.create(this.endpoint).getRawPath();
        this.endpointPath = path == null ? "" : path;
        this.authorization = authorization;
    }

    static HttpClient httpClient() {
        // HTTP/1.1: the Table service speaks no HTTP/2; connections are pooled per host. Responses are handled on
        // the client's selector thread instead of being handed to a pool thread each time: the hand-offs cost
        // more CPU than the work (a body is copied into one array; the caller parses it).
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(20)).executor(Runnable::run).build();
        CLIENTS.add(client);
        return client;
    }

    /**
     * The client, made on the first request rather than with the store: making one costs about 40 ms of a cold
     * start (its TLS context), which a command then spends checking its tables while its broker starts.
     */
    private HttpClient http() {
        HttpClient client = http;
        if (client == null) {
            synchronized (this) {
                client = http;
                if (client == null) {
                    http = client = newClient.get();
                }
            }
        }
        return client;
    }

    /** Ends every client made here now, waiting up to {@code within} for their threads; requests in flight fail. */
    static void shutdownClients(Duration within) {
        List<HttpClient> clients;
        synchronized (CLIENTS) {
            clients = List.copyOf(CLIENTS);
            CLIENTS.clear();
        }
        clients.forEach(HttpClient::shutdownNow);
        long deadline = System.nanoTime() + within.toNanos();
        for (HttpClient client : clients) {
            try {
                client.awaitTermination(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        StringBuilder q = new StringBuilder("$top=").append(options.pageSize());
        String filter = ODataFilter.of(query, options.rowFilter());
        if (filter != null) {
            q.append("&$filter=").append(UrlText.encode(filter));
        }
        if (options.select() != null) {
            Set<String> select = new LinkedHashSet<>(List.of("PartitionKey", "RowKey"));
            select.addAll(options.select());
            q.append("&$select=").append(UrlText.encode(String.join(",", select)));
        }
        if (from != null) {
            String token = from.opaque();
            int split = token.indexOf(';');
            q.append("&NextPartitionKey=").append(UrlText.encode(split < 0 ? token : token.substring(0, split)));
            if (split >= 0) {
                q.append("&NextRowKey=").append(UrlText.encode(token.substring(split + 1)));
            }
        }
        HttpResponse<byte[]> response = send(table, request("/" + table + "()", q.toString()).GET(), 200);
        try {
            List<Row> rows = EntityJson.rows(response.body());
            String pk = response.headers().firstValue("x-ms-continuation-NextPartitionKey").orElse(null);
            String rk = response.headers().firstValue("x-ms-continuation-NextRowKey").orElse(null);
            return new Page(rows, AzureTableStore.continuation(pk == null ? null : rk == null ? pk : pk + ";" + rk));
        } catch (IOException | RuntimeException e) {
            throw new TableStoreException("unreadable response on table " + table + ": " + e.getMessage(), 200, false, null);
        }
    }

    @Override
    public Row read(String table, String partitionKey, String rowKey) {
        HttpResponse<byte[]> response;
        try {
            response = send(table, request(entityPath(table, partitionKey, rowKey), "").GET(), 200);
        } catch (TableStoreException e) {
            if (AzureTableStore.notFound(e) && !e.getMessage().contains("TableNotFound")) {
                return null; // the row is gone; a missing table (TableNotFound) is a failure
            }
            throw e;
        }
        try {
            return EntityJson.row(response.body());
        } catch (IOException | RuntimeException e) {
            throw new TableStoreException("unreadable response on table " + table + ": " + e.getMessage(), 200, false, null);
        }
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        checkRows(partitionKey, rows);
        if (rows.size() == 1) {
            Row row = rows.getFirst();
            byte[] body = json(row);
            send(table, request(entityPath(table, row.partitionKey(), row.rowKey()), "")
                    .header("Content-Type", "application/json").header("Prefer", "return-no-content")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(body)), 204);
            return;
        }
        refusal(table, writeBatch(table, rows, i -> "PUT", i -> null), rows.size(), (status, code) -> false);
    }

    @Override
    public void merge(String table, String partitionKey, List<Row> rows) {
        checkRows(partitionKey, rows);
        refusal(table, writeBatch(table, rows, i -> "MERGE", i -> null), rows.size(), (status, code) -> false);
    }

    /**
     * One {@code $batch} of inserts (POST, a row without ETag) and replacements conditional on an ETag (PUT with
     * {@code If-Match}): an existing row refuses an insert (409), a changed one a replacement (412), as does a gone
     * one (404 but for a missing table, which is a failure: the caller creates the table).
     */
    @Override
    public Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
        checkRows(partitionKey, rows);
        return refusal(table, writeBatch(table, rows, i -> etags.get(i) == null ? "POST" : "PUT", etags::get),
                rows.size(), (status, code) -> status == 409 || status == 412
                        || status == 404 && !"TableNotFound".equals(code));
    }

    /** Azurite accepts batches that mix partitions; the service does not. Guard it here. */
    private static void checkRows(String partitionKey, List<Row> rows) {
        if (rows.isEmpty() || rows.size() > 100 || rows.stream().anyMatch(r -> !r.partitionKey().equals(partitionKey))) {
            throw new TableStoreException("a batch holds 1 to 100 rows of one partition", 400, false, null);
        }
    }

    /** One {@code $batch} writing each row with its method, {@code If-Match} its ETag when not null (see BatchBodies). */
    private String writeBatch(String table, List<Row> rows, IntFunction<String> method, IntFunction<String> ifMatch) {
        return sendBatch(table, rows.size() * 512,
                (out, changeset) -> BatchBodies.writes(out, changeset, endpoint, table, rows, method, ifMatch));
    }

    private static Refusal refusal(String table, String body, int size, BiPredicate<Integer, String> refusable) {
        return BatchBodies.refusal(body, size, refusable, (status, code) -> failure(table, status, code));
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        // False when already gone: a replayed mirror deletes what it deleted before.
        return AzureTableStore.unlessNotFound(() -> send(table,
                request(entityPath(table, partitionKey, rowKey), "").header("If-Match", "*").DELETE(), 204));
    }

    /** One {@code $batch} of conditional DELETEs ({@code If-Match} each row's ETag): a refusal names a row gone or changed. */
    @Override
    public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
        checkBatch(rows.size());
        String body = sendBatch(table, rows.size() * 300, (out, changeset) -> {
            for (Version row : rows) {
                ascii(out, "--" + changeset + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary"
                        + "\r\n\r\nDELETE " + endpoint + entityPath(table, partitionKey, row.rowKey())
                        + " HTTP/1.1\r\nAccept: " + ACCEPT + "\r\nIf-Match: " + row.ifMatch()
                        + "\r\nDataServiceVersion: 3.0\r\n\r\n");
            }
        });
        return refusal(table, body, rows.size(), (status, code) -> status == 404 || status == 412);
    }

    /**
     * Sends one {@code $batch} of one changeset whose operations {@code operations} writes (given the changeset's
     * boundary), and returns the response body, which holds each operation's status.
     */
    private String sendBatch(String table, int sizeHint, BiConsumer<ByteArrayOutputStream, String> operations) {
        String batch = "batch_" + UUID.randomUUID();
        String changeset = "changeset_" + UUID.randomUUID();
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        ascii(out, "--" + batch + "\r\nContent-Type: multipart/mixed; boundary=" + changeset + "\r\n\r\n");
        operations.accept(out, changeset);
        ascii(out, "--" + changeset + "--\r\n--" + batch + "--\r\n");
        HttpResponse<byte[]> response = send(table, request("/$batch", "")
                .header("Content-Type", "multipart/mixed; boundary=" + batch)
                .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())), 202);
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    /** Refuses a batch the service would: 1 to 100 operations. */
    static void checkBatch(int size) {
        if (size < 1 || size > 100) {
            throw new TableStoreException("a batch holds 1 to 100 rows of one partition", 400, false, null);
        }
    }

    @Override
    public boolean deleteTable(String table) {
        return AzureTableStore.unlessNotFound(() -> send(table, request("/Tables('" + table + "')", "").DELETE(), 204));
    }

    @Override
    public void createTableIfNotExists(String table) {
        byte[] body = ("{\"TableName\":\"" + table.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        try {
            send(table, request("/Tables", "").header("Content-Type", "application/json")
                    .header("Prefer", "return-no-content").POST(HttpRequest.BodyPublishers.ofByteArray(body)), 204);
        } catch (TableStoreException e) {
            if (e.status() != 409) { // it exists already
                throw e;
            }
        }
    }

    /** Query Tables, page by page (the service's continuation is x-ms-continuation-NextTableName). */
    @Override
    public List<String> listTables() {
        String what = "(the list of tables)";
        List<String> names = new java.util.ArrayList<>();
        String next = null;
        do {
            HttpResponse<byte[]> response = send(what, request("/Tables",
                    next == null ? "" : "NextTableName=" + UrlText.encode(next)).GET(), 200);
            Matcher name = TABLE_NAME.matcher(new String(response.body(), StandardCharsets.UTF_8));
            while (name.find()) { // table names are letters and digits: nothing to unescape
                names.add(name.group(1));
            }
            next = response.headers().firstValue("x-ms-continuation-NextTableName").orElse(null);
        } while (next != null);
        return names;
    }

    private static final Pattern TABLE_NAME = Pattern.compile("\"TableName\"\\s*:\\s*\"([^\"]*)\"");

    @Override
    public boolean tableExists(String table) {
        return AzureTableStore.unlessNotFound(
                () -> query(table, KeyRange.ALL, new QueryOptions(1, List.of("PartitionKey"), null), null));
    }

    /** The path of one entity under the endpoint: {@code /table(PartitionKey='pk',RowKey='rk')}, keys quoted and encoded. */
    static String entityPath(String table, String partitionKey, String rowKey) {
        return "/" + table + "(PartitionKey='" + UrlText.encode(partitionKey.replace("'", "''"))
                + "',RowKey='" + UrlText.encode(rowKey.replace("'", "''")) + "')";
    }

    /** A request to a path under the endpoint, with a query (percent-encoded) or "". */
    private HttpRequest.Builder request(String path, String query) {
        String rawPath = endpointPath + path;
        String sas = authorization.query();
        String fullQuery = query.isEmpty() ? sas : sas.isEmpty() ? query : query + "&" + sas;
        URI uri = URI.create(endpoint.substring(0, endpoint.length() - endpointPath.length()) + rawPath
                + (fullQuery.isEmpty() ? "" : "?" + fullQuery));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                .header("x-ms-version", VERSION)
                .header("Accept", ACCEPT)
                .header("DataServiceVersion", "3.0")
                .header("MaxDataServiceVersion", "3.0;NetFx");
        authorization.authorize(request, rawPath);
        return request;
    }

    /** Sends a request; any status but {@code expected} (or another 2xx) is a failure said without URL or secret. */
    private HttpResponse<byte[]> send(String table, HttpRequest.Builder request, int expected) {
        HttpResponse<byte[]> response;
        try {
            response = http().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw AzureTableStore.ioError(table, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TableStoreException("interrupted on table " + table, 0, true, null);
        }
        int status = response.statusCode();
        if (status != expected && (status < 200 || status >= 300)) {
            String code = response.headers().firstValue("x-ms-error-code")
                    .orElseGet(() -> errorCode(new String(response.body(), StandardCharsets.UTF_8)));
            throw failure(table, status, code);
        }
        return response;
    }

    private static TableStoreException failure(String table, int status, String code) {
        return new TableStoreException("HTTP " + status + (code == null ? "" : " " + code) + " on table " + table,
                status, TableStoreException.isTransientStatus(status), null);
    }

    /** The service's error code in an error body, JSON ({@code "code":"..."}) or XML ({@code <Code>}), or null. */
    static String errorCode(String body) {
        Matcher m = ERROR_CODE.matcher(body.length() > 4096 ? body.substring(0, 4096) : body);
        return m.find() ? (m.group(1) != null ? m.group(1) : m.group(2)) : null;
    }

    private static byte[] json(Row row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try {
            EntityJson.write(row, out);
        } catch (IOException e) {
            throw new IllegalStateException(e); // to memory: cannot happen
        }
        return out.toByteArray();
    }

    private static void ascii(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
