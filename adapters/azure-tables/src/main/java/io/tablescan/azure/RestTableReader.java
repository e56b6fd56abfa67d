package io.tablescan.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * Reads a table through the REST API with plain HTTP and JSON, not through the Azure SDK that tablescan writes
 * with, so a verification sees each value exactly as the service sends it (the SDK would parse an altered
 * DateTime into the same instant). Signs with the account key (Shared Key Lite): the demo's Azurite, or an
 * account given by a connection string with a key.
 */
public final class RestTableReader {
    /** One property as the service sends it: its type (from the annotation or the JSON) and its literal text. */
    public record WireValue(String type, String text) {}

    /** A row's keys and its properties by name, Timestamp and metadata left out. */
    public record WireRow(String partitionKey, String rowKey, Map<String, WireValue> properties) {}

    private static final JsonFactory JSON = new JsonFactory();

    private final HttpClient http = HttpClient.newHttpClient();
    private final SharedKeyLite signer;
    private final URI endpoint;

    private RestTableReader(String account, byte[] key, URI endpoint) {
        this.signer = new SharedKeyLite(account, key);
        this.endpoint = endpoint;
    }

    /** From a connection string with AccountName, AccountKey and TableEndpoint (or EndpointSuffix). */
    public static RestTableReader fromConnectionString(String connectionString) {
        ConnectionString parsed = ConnectionString.parse(connectionString);
        if (parsed.key() == null) {
            throw new IllegalArgumentException("a connection string with AccountName and AccountKey is needed to verify");
        }
        return new RestTableReader(parsed.account(), parsed.key(), URI.create(parsed.endpoint() + "/"));
    }

    /** Every row of a table in key order, a page of up to 1,000 rows at a time. */
    public Iterator<WireRow> rows(String table) {
        return new Iterator<>() {
            private Iterator<WireRow> page = List.<WireRow>of().iterator();
            private String nextPartition = "";
            private String nextRow = "";
            private boolean more = true;

            @Override
            public boolean hasNext() {
                while (!page.hasNext() && more) {
                    HttpResponse<byte[]> response = get(table, nextPartition, nextRow);
                    nextPartition = response.headers().firstValue("x-ms-continuation-NextPartitionKey").orElse(null);
                    nextRow = response.headers().firstValue("x-ms-continuation-NextRowKey").orElse("");
                    more = nextPartition != null;
                    page = parse(response.body()).iterator();
                }
                return page.hasNext();
            }

            @Override
            public WireRow next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.next();
            }
        };
    }

    private HttpResponse<byte[]> get(String table, String nextPartition, String nextRow) {
        String path = table + "()";
        StringBuilder query = new StringBuilder("?$top=1000");
        if (!nextPartition.isEmpty()) {
            query.append("&NextPartitionKey=").append(URLEncoder.encode(nextPartition, StandardCharsets.UTF_8));
            query.append("&NextRowKey=").append(URLEncoder.encode(nextRow, StandardCharsets.UTF_8));
        }
        URI uri = endpoint.resolve(path + query);
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .header("x-ms-version", "2019-02-02")
                .header("Accept", "application/json;odata=minimalmetadata");
        signer.authorize(builder, uri.getRawPath());
        HttpRequest request = builder.GET().build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + response.statusCode() + " reading table " + table);
            }
            return response;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read table " + table + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** The rows of a response body: {@code {"value": [entity, ...]}}, each literal kept as sent. */
    public static List<WireRow> parse(byte[] body) {
        List<WireRow> rows = new ArrayList<>();
        try (JsonParser json = JSON.createParser(body)) {
            while (json.nextToken() != null) {
                if (json.currentToken() == JsonToken.FIELD_NAME && json.currentName().equals("value")
                        && json.nextToken() == JsonToken.START_ARRAY) {
                    while (json.nextToken() == JsonToken.START_OBJECT) {
                        rows.add(entity(json));
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("unreadable response: " + e.getMessage());
        }
        return rows;
    }

    private static WireRow entity(JsonParser json) throws IOException {
        Map<String, String> annotations = new HashMap<>();
        Map<String, WireValue> values = new TreeMap<>();
        String partitionKey = null;
        String rowKey = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            JsonToken token = json.nextToken();
            String text = json.getText(); // a number's text as sent: 2.0 stays 2.0, -0.0 stays -0.0
            if (name.equals("PartitionKey")) {
                partitionKey = text;
            } else if (name.equals("RowKey")) {
                rowKey = text;
            } else if (name.endsWith("@odata.type")) {
                annotations.put(name.substring(0, name.length() - "@odata.type".length()), text);
            } else if (!name.startsWith("odata.") && !name.equals("Timestamp")) {
                values.put(name, new WireValue(implicitType(token), text));
            }
        }
        annotations.forEach((name, type) -> values.computeIfPresent(name, (n, v) -> new WireValue(type, v.text())));
        return new WireRow(partitionKey, rowKey, values);
    }

    /** The type JSON alone gives a value without an annotation. */
    private static String implicitType(JsonToken token) {
        return switch (token) {
            case VALUE_NUMBER_INT -> "Edm.Int32";
            case VALUE_NUMBER_FLOAT -> "Edm.Double";
            case VALUE_TRUE, VALUE_FALSE -> "Edm.Boolean";
            default -> "Edm.String";
        };
    }
}
