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
 * The ledger's status page, on its metrics port: {@code /} (the page), {@code /api/scans} (the most recent scans,
 * {@value #LIMIT} unless {@code ?limit=N} asks for more, JSON),
 * {@code /api/scans/ID} (one scan with its failures and progress over time) and, only when the ledger is given
 * {@value #TOKEN} and a request carries it as {@code Authorization: Bearer ...}, {@code POST /api/scans/ID/cancel},
 * {@code .../throttle} and {@code .../retry}. Without that variable the page is read-only.
 */
public final class StatusPage {
    public static final String TOKEN = "TABLESCAN_UI_TOKEN";
    private static final Logger LOG = LoggerFactory.getLogger(StatusPage.class);
    private static final Pattern SCAN = Pattern.compile("/api/scans/([A-Za-z0-9._-]{1,80})(?:/(cancel|throttle|retry))?");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Scans in the list unless the query asks for more: the most recent first. */
    static final int LIMIT = 500;
    static final int MAX_LIMIT = 10_000;
    private static final Pattern LIMIT_PARAMETER = Pattern.compile("(?:^|&)limit=([^&]*)");
    /** A token shorter than this is refused: the actions cancel and throttle a cluster's scans. */
    static final int TOKEN_LENGTH = 16;

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

    /**
     * {@code token} empty or blank: the page is read-only. A token the actions could be guessed with (shorter than
     * {@value #TOKEN_LENGTH} characters, or the example's placeholder) is refused with IllegalArgumentException.
     */
    public StatusPage(ScanBoard board, String namespace, Actions actions, Optional<String> token) {
        this.board = board;
        this.namespace = namespace;
        this.actions = actions;
        this.token = checked(token).map(t -> t.getBytes(StandardCharsets.UTF_8)).orElse(null);
    }

    /** The token without blanks around it, empty for none; one the actions could be guessed with is refused. */
    public static Optional<String> checked(Optional<String> token) {
        Optional<String> given = token.map(String::strip).filter(t -> !t.isEmpty());
        if (given.isPresent() && given.get().length() < TOKEN_LENGTH) {
            throw new IllegalArgumentException(TOKEN + " must be a random string of at least " + TOKEN_LENGTH
                    + " characters (it lets whoever has it cancel and throttle scans), as `openssl rand -hex 24` prints");
        }
        if (given.isPresent() && given.get().startsWith("replace-")) {
            throw new IllegalArgumentException(TOKEN + " is still the example's placeholder: set a random string, as "
                    + "`openssl rand -hex 24` prints");
        }
        return given;
    }

    /** Whether the page takes actions (a token was given). */
    public boolean acts() {
        return token != null;
    }

    /** Adds the page to a process's metrics server. */
    public void serveOn(MetricsServer server) {
        server.route("/", this::page);
        server.route("/api/", this::api);
    }

    private void page(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!isRead(exchange.getRequestMethod().toUpperCase(Locale.ROOT))) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            respond(exchange, 405, "text/plain; charset=utf-8", bytes("use GET\n"));
            return;
        }
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
            if (path.equals("/api/scans")) {
                if (isRead(method)) {
                    int limit;
                    try {
                        limit = limit(exchange.getRequestURI().getRawQuery());
                    } catch (IllegalArgumentException e) {
                        json(exchange, 400, error(e.getMessage()));
                        return;
                    }
                    json(exchange, 200, all(now, limit));
                } else {
                    notAllowed(exchange, "GET");
                }
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
                    notAllowed(exchange, "GET");
                } else if (scan.isEmpty()) {
                    json(exchange, 404, error("no scan " + scanId + " in namespace " + namespace));
                } else {
                    json(exchange, 200, ScanJson.detail(scan.get(), now));
                }
                return;
            }
            if (!method.equals("POST")) {
                notAllowed(exchange, "POST");
            } else if (token == null) {
                json(exchange, 403, error("read-only: the ledger was started without " + TOKEN));
            } else if (!authorized(exchange)) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
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
                Long read;
                Long write;
                try {
                    JsonNode body = body(exchange);
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

    /** The most recent scans listed: {@code limit=N} in the query, 1 to 10,000, else {@value #LIMIT}. */
    static int limit(String query) {
        Matcher m = query == null ? null : LIMIT_PARAMETER.matcher(query);
        if (m == null || !m.find()) {
            return LIMIT;
        }
        String digits = m.group(1);
        if (!digits.matches("\\d{1,5}") || Integer.parseInt(digits) < 1 || Integer.parseInt(digits) > MAX_LIMIT) {
            throw new IllegalArgumentException("limit is a number of scans from 1 to 10,000");
        }
        return Integer.parseInt(digits);
    }

    private Map<String, Object> all(long now, int limit) {
        List<ScanBoard.Scan> scans = board.scans();
        List<Map<String, Object>> lines = new ArrayList<>();
        // Throttled requests of the running scans by account: where the service is pushing back now.
        Map<String, long[]> accounts = new TreeMap<>();
        for (ScanBoard.Scan scan : scans) {
            if (lines.size() < limit) {
                lines.add(ScanJson.summary(scan, now));
            }
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
        json.put("problem", board.problem().orElse(null));
        json.put("actions", token != null);
        json.put("accounts", byAccount);
        json.put("total", scans.size());
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
            byte[] bytes = in.readNBytes(4_097);
            if (bytes.length > 4_096) {
                throw new IllegalArgumentException("a body of at most 4 KB, as {\"maxRate\": N, \"maxWriteRate\": N}");
            }
            JsonNode body = bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
            if (!body.isObject()) {
                throw new IllegalArgumentException("a JSON object, as {\"maxRate\": N, \"maxWriteRate\": N}");
            }
            return body;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: send {\"maxRate\": N, \"maxWriteRate\": N}");
        }
    }

    private static Long rate(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw new IllegalArgumentException(name + " is a whole number of rows per second, 0 (no cap) or more");
        }
        return value.asLong();
    }

    private static void notAllowed(HttpExchange exchange, String allowed) throws IOException {
        exchange.getResponseHeaders().set("Allow", allowed + (allowed.equals("GET") ? ", HEAD" : ""));
        json(exchange, 405, error("use " + allowed));
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
        exchange.getResponseHeaders().set("X-Frame-Options", "DENY"); // no page of another site frames its buttons
        exchange.getResponseHeaders().set("Content-Security-Policy", "frame-ancestors 'none'");
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
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
