package io.tablescan.ledger.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.tablescan.control.FailedItems;
import io.tablescan.control.ScanCanceller;
import io.tablescan.control.Throttle;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger's status page, on its metrics port: {@code /} (the page), {@code /api/scans} (every scan, JSON),
 * {@code /api/scans/ID} (one scan with its failures and progress over time) and, only when the ledger is given
 * {@value #TOKEN} and a request carries it as {@code Authorization: Bearer ...}, {@code POST /api/scans/ID/cancel},
 * {@code .../throttle} and {@code .../retry}. Without that variable the page is read-only.
 */
public final class StatusPage {
    public static final String TOKEN = "TABLESCAN_UI_TOKEN";
    private static final Logger LOG = LoggerFactory.getLogger(StatusPage.class);
    private static final Pattern SCAN = Pattern.compile("/api/scans/([A-Za-z0-9._-]{1,80})(?:/(cancel|throttle|retry))?");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the page's buttons do: the same as the cancel, throttle and retry commands. */
    public interface Actions {
        void cancel(String scanId);

        void throttle(String scanId, Long maxRate, Long maxWriteRate);

        /** The failed items re-submitted. */
        int retry(String scanId);

        static Actions on(KafkaSettings kafka) {
            return new Actions() {
                @Override
                public void cancel(String scanId) {
                    ScanCanceller.cancel(kafka, scanId);
                }

                @Override
                public void throttle(String scanId, Long maxRate, Long maxWriteRate) {
                    Throttle.set(kafka, scanId, maxRate, maxWriteRate);
                }

                @Override
                public int retry(String scanId) {
                    try (FailedItems items = new FailedItems(kafka, scanId)) {
                        return items.retry();
                    }
                }
            };
        }
    }

    private final ScanBoard board;
    private final String namespace;
    private final Actions actions;
    private final byte[] token; // null: read-only

    /** {@code token} empty or blank: the page is read-only. */
    public StatusPage(ScanBoard board, String namespace, Actions actions, Optional<String> token) {
        this.board = board;
        this.namespace = namespace;
        this.actions = actions;
        this.token = token.filter(t -> !t.isBlank()).map(t -> t.strip().getBytes(StandardCharsets.UTF_8)).orElse(null);
    }

    /** Adds the page to a process's metrics server. */
    public void serveOn(MetricsServer server) {
        server.route("/", this::page);
        server.route("/api/", this::api);
    }

    private void page(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!path.equals("/") && !path.equals("/index.html")) {
            respond(exchange, 404, "text/plain; charset=utf-8", bytes("not found: the status page is at /\n"));
            return;
        }
        try (InputStream html = StatusPage.class.getResourceAsStream("status.html")) {
            respond(exchange, 200, "text/html; charset=utf-8", html.readAllBytes());
        }
    }

    private void api(HttpExchange exchange) throws IOException {
        try {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            long now = System.currentTimeMillis();
            if (path.equals("/api/scans") && isRead(method)) {
                json(exchange, 200, all(now));
                return;
            }
            Matcher m = SCAN.matcher(path);
            if (!m.matches()) {
                json(exchange, 404, error("no such resource: see /api/scans"));
                return;
            }
            String scanId = m.group(1);
            String action = m.group(2);
            Optional<ScanBoard.Scan> scan = board.scan(scanId);
            if (action == null) {
                if (!isRead(method)) {
                    json(exchange, 405, error("use GET"));
                } else if (scan.isEmpty()) {
                    json(exchange, 404, error("no scan " + scanId + " in namespace " + namespace));
                } else {
                    json(exchange, 200, ScanJson.detail(scan.get(), now));
                }
                return;
            }
            if (!method.equals("POST")) {
                json(exchange, 405, error("use POST"));
            } else if (token == null) {
                json(exchange, 403, error("read-only: the ledger was started without " + TOKEN));
            } else if (!authorized(exchange)) {
                json(exchange, 401, error("a wrong or missing token: send the one the ledger was given in "
                        + TOKEN + " as Authorization: Bearer"));
            } else if (scan.isEmpty()) {
                json(exchange, 404, error("no scan " + scanId + " in namespace " + namespace));
            } else {
                act(exchange, scan.get(), action);
            }
        } catch (RuntimeException e) {
            LOG.warn("status page: {} failed: {}", exchange.getRequestURI().getPath(), e.toString());
            json(exchange, 500, error("the ledger could not answer: " + e.getClass().getSimpleName()));
        }
    }

    private void act(HttpExchange exchange, ScanBoard.Scan scan, String action) throws IOException {
        String id = scan.status().getScanId();
        boolean ended = scan.status().getState() != ScanState.RUNNING;
        switch (action) {
            case "cancel" -> {
                if (ended) {
                    json(exchange, 409, error("scan " + id + " has ended: nothing to cancel"));
                    return;
                }
                actions.cancel(id);
                LOG.info("status page: cancel of scan {} sent", id);
                json(exchange, 202, message("cancel sent; workers skip its remaining items"));
            }
            case "throttle" -> {
                JsonNode body = body(exchange);
                Long read;
                Long write;
                try {
                    read = rate(body, "maxRate");
                    write = rate(body, "maxWriteRate");
                } catch (IllegalArgumentException e) {
                    json(exchange, 400, error(e.getMessage()));
                    return;
                }
                if (read == null && write == null) {
                    json(exchange, 400, error("give maxRate or maxWriteRate (rows/s, 0: no cap)"));
                } else if (ended) {
                    json(exchange, 409, error("scan " + id + " has ended: nothing to throttle"));
                } else {
                    actions.throttle(id, read, write);
                    LOG.info("status page: caps of scan {} sent (read {}, write {})", id, read, write);
                    json(exchange, 202, message("caps sent; workers follow within a few seconds"));
                }
            }
            default -> {
                if (scan.status().getState() == ScanState.CANCELLED) {
                    json(exchange, 409, error("scan " + id + " was cancelled; start a new scan instead"));
                    return;
                }
                int retried = actions.retry(id);
                LOG.info("status page: {} failed items of scan {} re-submitted", retried, id);
                json(exchange, 202, message("re-submitted " + retried + " failed item" + (retried == 1 ? "" : "s")));
            }
        }
    }

    private Map<String, Object> all(long now) {
        List<ScanBoard.Scan> scans = board.scans();
        List<Map<String, Object>> lines = new ArrayList<>();
        // Throttled requests of the running scans by account: where the service is pushing back now.
        Map<String, long[]> accounts = new TreeMap<>();
        for (ScanBoard.Scan scan : scans) {
            lines.add(ScanJson.summary(scan, now));
            if (scan.status().getState() == ScanState.RUNNING) {
                var spec = scan.status().getSpec();
                long[] a = accounts.computeIfAbsent(spec.getSource().getAccount(), k -> new long[3]);
                a[0]++;
                a[1] += scan.status().getThrottles();
                a[2] += scan.status().getRetries();
            }
        }
        List<Map<String, Object>> byAccount = new ArrayList<>();
        accounts.forEach((account, a) -> byAccount.add(Map.of("account", account, "runningScans", a[0],
                "throttledRequests", a[1], "retries", a[2])));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("namespace", namespace);
        json.put("nowMillis", now);
        json.put("loading", !board.caughtUp());
        json.put("actions", token != null);
        json.put("accounts", byAccount);
        json.put("scans", lines);
        return json;
    }

    private boolean authorized(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(token, header.substring(7).strip().getBytes(StandardCharsets.UTF_8));
    }

    private static boolean isRead(String method) {
        return method.equals("GET") || method.equals("HEAD");
    }

    private static JsonNode body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(4_096);
            return bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return JSON.createObjectNode();
        }
    }

    private static Long rate(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.canConvertToLong() || value.asLong() < 0) {
            throw new IllegalArgumentException(name + " is 0 (no cap) or more rows per second");
        }
        return value.asLong();
    }

    private static Map<String, Object> error(String text) {
        return Map.of("error", text);
    }

    private static Map<String, Object> message(String text) {
        return Map.of("message", text);
    }

    private static void json(HttpExchange exchange, int status, Object body) throws IOException {
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        respond(exchange, status, "application/json; charset=utf-8", JSON.writeValueAsBytes(body));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void respond(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = exchange.getRequestMethod().equalsIgnoreCase("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }
}
