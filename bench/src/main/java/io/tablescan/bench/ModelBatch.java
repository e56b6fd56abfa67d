package io.tablescan.bench;

import com.sun.net.httpserver.HttpExchange;
import io.tablescan.azure.RowJson;
import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code $batch} of the model account: one changeset of PUTs (upserts) or of DELETEs with If-Match, all of one
 * partition, answered as the service answers it: 202, then each operation's status, or the failed one's alone with
 * its index before its error message.
 */
final class ModelBatch {
    private static final Pattern BOUNDARY = Pattern.compile("boundary=(changeset_[^\\s;]+)");
    private static final Pattern REQUEST = Pattern.compile("^(PUT|DELETE) (\\S+) HTTP/1\\.1\r?$", Pattern.MULTILINE);
    private static final Pattern IF_MATCH = Pattern.compile("^If-Match: (.+?)\r?$", Pattern.MULTILINE);

    private ModelBatch() {}

    static void answer(HttpExchange exchange, TableStore store) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher boundary = BOUNDARY.matcher(body);
        if (!boundary.find()) {
            ModelAccount.send(exchange, 400, "InvalidInput");
            return;
        }
        String table = null;
        String partition = null;
        List<Row> upserts = new ArrayList<>();
        List<TableStore.Version> deletes = new ArrayList<>();
        String[] parts = body.split("--" + Pattern.quote(boundary.group(1)));
        for (int i = 1; i < parts.length; i++) {
            Matcher request = REQUEST.matcher(parts[i]);
            if (!request.find()) {
                continue; // the closing boundary's "--"
            }
            Matcher entity = ModelAccount.ENTITY.matcher(request.group(2));
            if (!entity.find()) {
                ModelAccount.send(exchange, 400, "InvalidInput");
                return;
            }
            table = entity.group(1);
            partition = ModelAccount.pathKey(entity.group(2));
            if (request.group(1).equals("PUT")) {
                int start = parts[i].indexOf("\r\n\r\n", request.end()) + 4;
                upserts.add(RowJson.parse(parts[i].substring(start).strip().getBytes(StandardCharsets.UTF_8)));
            } else {
                Matcher ifMatch = IF_MATCH.matcher(parts[i]);
                String etag = ifMatch.find(request.end()) ? ifMatch.group(1) : "*";
                deletes.add(new TableStore.Version(ModelAccount.pathKey(entity.group(3)), etag.equals("*") ? null : etag));
            }
        }
        if (table == null || !upserts.isEmpty() && !deletes.isEmpty()) {
            ModelAccount.send(exchange, 400, "InvalidInput");
            return;
        }
        String response;
        try {
            if (!upserts.isEmpty()) {
                store.upsert(table, partition, upserts);
                response = statuses(upserts.size());
            } else {
                TableStore.Refusal refusal = store.deleteIfUnchanged(table, partition, deletes);
                response = refusal == null ? statuses(deletes.size()) : failed(refusal.index(),
                        refusal.gone() ? 404 : 412, refusal.gone() ? "ResourceNotFound" : "UpdateConditionNotSatisfied");
            }
        } catch (TableStoreException e) {
            if (e.status() == 404) {
                ModelAccount.send(exchange, 404, "TableNotFound");
                return;
            }
            response = failed(0, e.status() == 0 ? 500 : e.status(), e.status() == 400 ? "InvalidInput" : "Failed");
        }
        String batch = "batchresponse_" + UUID.randomUUID();
        byte[] out = ("--" + batch + "\r\n" + response + "--" + batch + "--\r\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "multipart/mixed; boundary=" + batch);
        exchange.sendResponseHeaders(202, out.length);
        exchange.getResponseBody().write(out);
    }

    /** A changeset's response of {@code n} successes. */
    private static String statuses(int n) {
        StringBuilder out = new StringBuilder();
        String changeset = "changesetresponse_" + UUID.randomUUID();
        out.append("Content-Type: multipart/mixed; boundary=").append(changeset).append("\r\n\r\n");
        for (int i = 0; i < n; i++) {
            out.append("--").append(changeset).append("\r\nContent-Type: application/http\r\n"
                    + "Content-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\n"
                    + "X-Content-Type-Options: nosniff\r\nDataServiceVersion: 1.0;\r\n\r\n\r\n");
        }
        return out.append("--").append(changeset).append("--\r\n").toString();
    }

    /** A changeset's response when operation {@code index} failed: that response alone. */
    private static String failed(int index, int status, String code) {
        String changeset = "changesetresponse_" + UUID.randomUUID();
        return "Content-Type: multipart/mixed; boundary=" + changeset + "\r\n\r\n--" + changeset
                + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 " + status
                + " Failed\r\nContent-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\r\n\r\n"
                + ModelAccount.error(code, index + ":") + "\r\n--" + changeset + "--\r\n";
    }
}
