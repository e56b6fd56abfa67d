package io.tablescan.azure;

import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore.Refusal;
import io.tablescan.spi.TableStoreException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The operations of a {@code $batch} changeset as the REST store writes them, and what its response says. */
final class BatchBodies {
    private static final String ACCEPT = "application/json;odata=minimalmetadata";
    private static final Pattern FAILED_INDEX = Pattern.compile("\"(?:value|message)\"\\s*:\\s*\"(\\d+):");
    private static final Pattern INNER_STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3})");

    private BatchBodies() {}

    /**
     * Writes each row as one operation with its method (POST: an insert, to the table; else to the row's path),
     * {@code If-Match} its ETag when not null.
     */
    static void writes(ByteArrayOutputStream out, String changeset, String endpoint, String table, List<Row> rows,
            IntFunction<String> method, IntFunction<String> ifMatch) {
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            String verb = method.apply(i);
            String etag = ifMatch.apply(i);
            ascii(out, "--" + changeset + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                    + verb + " " + endpoint + (verb.equals("POST") ? "/" + table
                            : RestTableStore.entityPath(table, row.partitionKey(), row.rowKey()))
                    + " HTTP/1.1\r\nContent-Type: application/json\r\nAccept: " + ACCEPT
                    + (etag == null ? "" : "\r\nIf-Match: " + etag)
                    + "\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0\r\n\r\n");
            try {
                EntityJson.write(row, out);
            } catch (IOException e) {
                throw new IllegalStateException(e); // to memory: cannot happen
            }
            ascii(out, "\r\n");
        }
    }

    /**
     * The refusal a batch's response holds: its first failed operation, when {@code refusable} (its status and error
     * code) and its index is given; any other failure is thrown ({@code failure}). The batch answers 202 even when
     * its changeset failed: the failure is the failed operation's response, its index first in the error message
     * ({@code "2:The update condition ..."}), as the service and Azurite both send it.
     */
    static Refusal refusal(String body, int size, BiPredicate<Integer, String> refusable,
            BiFunction<Integer, String, TableStoreException> failure) {
        Matcher inner = INNER_STATUS.matcher(body);
        while (inner.find()) {
            int status = Integer.parseInt(inner.group(1));
            if (status < 300) {
                continue;
            }
            String rest = body.substring(inner.end());
            String code = RestTableStore.errorCode(rest);
            if (refusable.test(status, code)) {
                int index = size == 1 ? 0 : failedIndex(rest);
                if (index >= 0 && index < size) {
                    return new Refusal(index, status == 404);
                }
            }
            throw failure.apply(status, code);
        }
        return null;
    }

    /** The index of a failed batch operation: its error message's "N:" prefix (-1 without one). */
    static int failedIndex(String response) {
        Matcher m = FAILED_INDEX.matcher(response);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static void ascii(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
