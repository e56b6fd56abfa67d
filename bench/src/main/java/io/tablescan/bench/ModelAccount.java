package io.tablescan.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tablescan.azure.ODataFilter;
import io.tablescan.azure.RowJson;
import io.tablescan.spi.Bound;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model table account over HTTP: the subset of the Table service's REST API that tablescan's REST adapter uses
 * (query pages with continuation headers, {@code $batch} upserts and deletes, single-entity GET, PUT and DELETE,
 * table create), answered by an in-memory {@link TableStore} (its latency and account pacing included), so that workers
 * in other processes reach the bench's generated and checking tables with a connection string. Signatures are not
 * checked; it listens on loopback only.
 */
final class ModelAccount implements AutoCloseable {
    static final String ACCOUNT = "bench";
    private static final String LITERAL = "'((?:[^']|'')*)'";
    private static final Pattern PARTITION = Pattern.compile("PartitionKey eq " + LITERAL
            + "(?: and RowKey (ge|gt) " + LITERAL + ")?");
    private static final Pattern RESUME = Pattern.compile("\\(\\(PartitionKey eq " + LITERAL + " and RowKey (ge|gt) "
            + LITERAL + "\\) or PartitionKey gt " + LITERAL + "\\)");
    private static final Pattern LOWER = Pattern.compile("PartitionKey (ge|gt) " + LITERAL);
    private static final Pattern UPPER = Pattern.compile("PartitionKey lt " + LITERAL);
    static final Pattern ENTITY = Pattern.compile("/([A-Za-z0-9]+)\\(PartitionKey='([^']*)',RowKey='([^']*)'\\)$");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "model-account");
        t.setDaemon(true);
        return t;
    });
    private final TableStore store;
    private final java.util.concurrent.atomic.AtomicLong bytesServed = new java.util.concurrent.atomic.AtomicLong();

    private ModelAccount(TableStore store) throws IOException {
        this.store = store;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/" + ACCOUNT + "/", this::handle);
        // A thread a request: the store sleeps its latency and pacing out, as the service answers late.
        server.setExecutor(threads);
        server.start();
    }

    /** Serves {@code store} on a free loopback port until closed. */
    static ModelAccount start(TableStore store) {
        try {
            return new ModelAccount(store);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A connection string any tablescan process reaches this account with (its key is not checked). */
    String connectionString() {
        return "TableEndpoint=http://127.0.0.1:" + server.getAddress().getPort() + "/" + ACCOUNT + ";AccountName="
                + ACCOUNT + ";AccountKey=" + Base64.getEncoder().encodeToString(new byte[32]);
    }

    /** The bytes of the query pages and entities this account answered with (bodies only). */
    long bytesServed() {
        return bytesServed.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath().substring(ACCOUNT.length() + 1);
            String method = exchange.getRequestMethod();
            try {
                Matcher entity = ENTITY.matcher(path);
                if (method.equals("GET") && path.endsWith("()")) {
                    query(exchange, path.substring(1, path.length() - 2));
                } else if (method.equals("POST") && path.equals("/$batch")) {
                    ModelBatch.answer(exchange, store);
                } else if (method.equals("POST") && path.equals("/Tables")) {
                    createTable(exchange);
                } else if (entity.matches() && method.equals("GET")) {
                    Row row = pointRead(entity.group(1), pathKey(entity.group(2)), pathKey(entity.group(3)));
                    if (row == null) {
                        send(exchange, 404, "ResourceNotFound");
                    } else {
                        byte[] body = RowJson.toJson(row);
                        bytesServed.addAndGet(body.length);
                        exchange.getResponseHeaders().set("Content-Type", "application/json;odata=minimalmetadata");
                        exchange.sendResponseHeaders(200, body.length);
                        exchange.getResponseBody().write(body);
                    }
                } else if (entity.matches() && method.equals("PUT")) {
                    Row row = RowJson.parse(exchange.getRequestBody().readAllBytes());
                    store.upsert(entity.group(1), row.partitionKey(), List.of(row));
                    send(exchange, 204, null);
                } else if (entity.matches() && method.equals("DELETE")) {
                    boolean deleted = store.delete(entity.group(1), pathKey(entity.group(2)), pathKey(entity.group(3)));
                    send(exchange, deleted ? 204 : 404, deleted ? null : "ResourceNotFound");
                } else {
                    send(exchange, 501, "NotImplemented");
                }
            } catch (TableStoreException e) {
                send(exchange, e.status() == 0 ? 500 : e.status(), e.status() == 404 ? "TableNotFound" : "Failed");
            } catch (IllegalArgumentException e) {
                send(exchange, 400, "InvalidInput");
            }
        }
    }

    /**
     * A point read as a query of that one entity: its 100 ms and one entity's pace, concurrent with other requests
     * as the service's are (the in-memory store's own read holds its lock through the latency: one at a time).
     */
    private Row pointRead(String table, String partitionKey, String rowKey) {
        Page page = store.query(table, new PartitionRange(partitionKey, new Bound(rowKey, true)),
                new QueryOptions(1, null, null), null);
        return page.rows().isEmpty() || !page.rows().get(0).rowKey().equals(rowKey) ? null : page.rows().get(0);
    }

    /** One page: the filter read back into the query tablescan built it from, so the store walks only its range. */
    private void query(HttpExchange exchange, String table) throws IOException {
        Map<String, String> q = parameters(exchange.getRequestURI().getRawQuery());
        String filter = q.get("$filter");
        ScanQuery query = KeyRange.ALL;
        String rowFilter = filter;
        if (filter != null) {
            Filter parsed = parseFilter(filter);
            query = parsed.query();
            rowFilter = parsed.rowFilter();
        }
        List<String> select = q.containsKey("$select") ? Arrays.asList(q.get("$select").split(",")) : null;
        int top = q.containsKey("$top") ? Integer.parseInt(q.get("$top")) : QueryOptions.MAX_PAGE_SIZE;
        Continuation from = null;
        if (q.containsKey("NextPartitionKey")) {
            String pk = key(q.get("NextPartitionKey"));
            String rk = q.containsKey("NextRowKey") ? key(q.get("NextRowKey")) : null;
            from = new Continuation(pk + "\u0000" + rk, pk, rk);
        }
        Page page = store.query(table, query, new QueryOptions(top, select, rowFilter), from);
        ByteArrayOutputStream body = new ByteArrayOutputStream(page.rows().size() * 400 + 64);
        body.writeBytes(("{\"odata.metadata\":\"http://127.0.0.1/" + ACCOUNT + "/$metadata#" + table
                + "\",\"value\":[").getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < page.rows().size(); i++) {
            if (i > 0) {
                body.write(',');
            }
            body.writeBytes(RowJson.toJson(page.rows().get(i)));
        }
        body.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
        Map<String, String> headers = new HashMap<>(Map.of("Content-Type",
                "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"));
        if (page.next() != null) { // the service's tokens are opaque: these are the keys in base64
            headers.put("x-ms-continuation-NextPartitionKey", token(page.next().nextPartitionKey()));
            if (page.next().nextRowKey() != null) {
                headers.put("x-ms-continuation-NextRowKey", token(page.next().nextRowKey()));
            }
        }
        headers.forEach(exchange.getResponseHeaders()::set);
        bytesServed.addAndGet(body.size());
        exchange.sendResponseHeaders(200, body.size());
        body.writeTo(exchange.getResponseBody());
    }

    /** A $filter as the scan query and row filter it was built from. */
    record Filter(ScanQuery query, String rowFilter) {}

    /**
     * The query and row filter of a $filter as {@link ODataFilter#of} writes them; a filter of another shape is
     * all row filter over the whole table (right, only slower).
     */
    static Filter parseFilter(String filter) {
        ScanQuery query = null;
        int end = 0;
        Matcher m;
        if ((m = RESUME.matcher(filter)).lookingAt() && m.group(1).equals(m.group(4))) {
            query = new KeyRange(Bound.from(unquote(m.group(1))), new Bound(unquote(m.group(3)),
                    m.group(2).equals("ge")), null);
            end = m.end();
        } else if ((m = PARTITION.matcher(filter)).lookingAt()) {
            query = new PartitionRange(unquote(m.group(1)),
                    m.group(2) == null ? null : new Bound(unquote(m.group(3)), m.group(2).equals("ge")));
            end = m.end();
        } else if ((m = LOWER.matcher(filter)).lookingAt()) {
            query = new KeyRange(new Bound(unquote(m.group(2)), m.group(1).equals("ge")), null);
            end = m.end();
        }
        if (!(query instanceof PartitionRange)) {
            int at = end == 0 ? 0 : filter.startsWith(" and ", end) ? end + 5 : -1;
            if (at >= 0 && (m = UPPER.matcher(filter).region(at, filter.length())).lookingAt()) {
                KeyRange range = query == null ? KeyRange.ALL : (KeyRange) query;
                query = new KeyRange(range.lower(), range.lowerRow(), unquote(m.group(1)));
                end = m.end();
            }
        }
        String rowFilter = null;
        if (end > 0 && end < filter.length()) {
            if (!filter.startsWith(" and (", end) || !filter.endsWith(")")) {
                return new Filter(KeyRange.ALL, filter);
            }
            rowFilter = filter.substring(end + 6, filter.length() - 1);
        }
        if (end == 0 || !filter.equals(ODataFilter.of(query, rowFilter))) {
            return new Filter(KeyRange.ALL, filter);
        }
        return new Filter(query, rowFilter);
    }

    private void createTable(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"TableName\"\\s*:\\s*\"([^\"]+)\"").matcher(body);
        if (!m.find()) {
            send(exchange, 400, "InvalidInput");
        } else if (store.tableExists(m.group(1))) {
            send(exchange, 409, "TableAlreadyExists");
        } else {
            store.createTableIfNotExists(m.group(1));
            send(exchange, 204, null);
        }
    }

    /** A status with no body, or with the service's JSON error for {@code code}. */
    static void send(HttpExchange exchange, int status, String code) throws IOException {
        if (code == null) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        byte[] body = error(code, "").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("x-ms-error-code", code);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    /** The service's JSON error body; {@code prefix} is a failed batch operation's "index:". */
    static String error(String code, String prefix) {
        return "{\"odata.error\":{\"code\":\"" + code + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"" + prefix
                + code + "\"}}}";
    }

    /** An entity path's key: percent-decoded, its quotes undoubled. */
    static String pathKey(String raw) {
        return URLDecoder.decode(raw, StandardCharsets.UTF_8).replace("''", "'");
    }

    private static String unquote(String literal) {
        return literal.replace("''", "'");
    }

    /** A key as a continuation header: opaque as the service's, and ASCII as a header must be. */
    private static String token(String key) {
        return "1!" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_16BE));
    }

    /** The key a continuation header holds. */
    private static String key(String token) {
        if (!token.startsWith("1!")) {
            throw new IllegalArgumentException("not a continuation token");
        }
        return new String(Base64.getUrlDecoder().decode(token.substring(2)), StandardCharsets.UTF_16BE);
    }

    private static Map<String, String> parameters(String rawQuery) {
        Map<String, String> parameters = new HashMap<>();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    parameters.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return parameters;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
