package io.tablescan.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.io.IOException;
import java.io.OutputStream;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Entities as the Table service's JSON (minimal metadata): the rows of a query response, read token by token
 * from the service's own text (a DateTime's text straight into ticks, an Int64's string into a long), and a
 * row as the body of an insert. A value's type is its {@code Name@odata.type} annotation, else what JSON alone
 * says (string, Int32 for an integer, Double for a fraction, Boolean).
 */
final class EntityJson {
    private static final String ANNOTATION = "@odata.type";
    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final long TICKS_PER_SECOND = 10_000_000L;

    private EntityJson() {}

    /** The rows of a query response body: {@code {"odata.metadata": ..., "value": [entity, ...]}}. */
    static List<Row> rows(byte[] body) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (JsonParser json = JSON.createParser(body)) {
            expect(json.nextToken() == JsonToken.START_OBJECT);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                JsonToken value = json.nextToken();
                if (json.currentName().equals("value") && value == JsonToken.START_ARRAY) {
                    while (json.nextToken() == JsonToken.START_OBJECT) {
                        rows.add(entity(json));
                    }
                } else {
                    json.skipChildren();
                }
            }
        }
        return rows;
    }

    private static Row entity(JsonParser json) throws IOException {
        String partitionKey = null;
        String rowKey = null;
        Long timestamp = null;
        List<String> names = new ArrayList<>();
        List<Object> values = new ArrayList<>(); // a string's text, a number's text, or a Boolean
        List<JsonToken> tokens = new ArrayList<>();
        Map<String, String> annotations = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            JsonToken token = json.nextToken();
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                throw new IOException("property " + name + " is not a value");
            }
            if (name.equals("PartitionKey")) {
                partitionKey = json.getText();
            } else if (name.equals("RowKey")) {
                rowKey = json.getText();
            } else if (name.equals("Timestamp")) {
                timestamp = ticks(json.getText());
            } else if (name.endsWith(ANNOTATION)) {
                if (annotations == null) {
                    annotations = new HashMap<>();
                }
                annotations.put(name.substring(0, name.length() - ANNOTATION.length()), json.getText());
            } else if (!name.startsWith("odata.")) {
                names.add(name);
                tokens.add(token);
                values.add(token == JsonToken.VALUE_TRUE ? Boolean.TRUE : token == JsonToken.VALUE_FALSE ? Boolean.FALSE
                        : token == JsonToken.VALUE_NULL ? null : json.getText()); // a number's text as sent
            }
        }
        if (partitionKey == null || rowKey == null) {
            throw new IOException("an entity without PartitionKey or RowKey");
        }
        List<RowProperty> properties = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            properties.add(property(name, tokens.get(i), values.get(i), annotations == null ? null : annotations.get(name)));
        }
        return new Row(partitionKey, rowKey, properties, timestamp);
    }

    static RowProperty property(String name, JsonToken token, Object value, String annotation) throws IOException {
        if (value == null) {
            return new RowProperty(name, EdmType.STRING, null);
        }
        if (value instanceof Boolean b) {
            return new RowProperty(name, EdmType.BOOLEAN, b);
        }
        String text = (String) value;
        try {
            if (annotation == null) {
                return switch (token) {
                    case VALUE_NUMBER_INT -> new RowProperty(name, EdmType.INT32, Integer.valueOf(text));
                    case VALUE_NUMBER_FLOAT -> new RowProperty(name, EdmType.DOUBLE, Double.valueOf(text));
                    default -> new RowProperty(name, EdmType.STRING, text);
                };
            }
            return switch (annotation) {
                case "Edm.Int64" -> new RowProperty(name, EdmType.INT64, Long.valueOf(text));
                case "Edm.Double" -> new RowProperty(name, EdmType.DOUBLE, Double.valueOf(text)); // NaN, Infinity too
                case "Edm.DateTime" -> new RowProperty(name, EdmType.DATETIME, ticks(text));
                case "Edm.Guid" -> new RowProperty(name, EdmType.GUID, text);
                case "Edm.Binary" -> new RowProperty(name, EdmType.BINARY, Base64.getDecoder().decode(text));
                case "Edm.String" -> new RowProperty(name, EdmType.STRING, text);
                case "Edm.Int32" -> new RowProperty(name, EdmType.INT32, Integer.valueOf(text));
                default -> throw new IOException("property " + name + " has an unsupported type " + annotation);
            };
        } catch (IllegalArgumentException e) { // NumberFormatException, bad base64
            throw new IOException("property " + name + " is not a valid " + annotation);
        }
    }

    /**
     * 100 ns ticks since the Unix epoch from the service's DateTime text, {@code 2024-01-02T03:04:05.1234567Z}
     * (digits beyond the 7th are dropped, as ticks cannot hold them); any other ISO form goes the long way.
     */
    static long ticks(String text) {
        int n = text.length();
        if (n >= 20 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T'
                && text.charAt(13) == ':' && text.charAt(16) == ':' && text.charAt(n - 1) == 'Z'
                && (n == 20 || text.charAt(19) == '.' && n > 21)) {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 7);
            int day = digits(text, 8, 10);
            int hour = digits(text, 11, 13);
            int minute = digits(text, 14, 16);
            int second = digits(text, 17, 19);
            long fraction = 0;
            int scale = 0;
            for (int i = 20; i < n - 1 && scale >= 0; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    scale = -1;
                } else if (scale < 7) {
                    fraction = fraction * 10 + (c - '0');
                    scale++;
                }
            }
            if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && hour >= 0 && hour < 24 && minute >= 0
                    && minute < 60 && second >= 0 && second < 60 && scale >= 0) {
                for (; scale < 7; scale++) {
                    fraction *= 10;
                }
                long days = LocalDate.of(year, month, day).toEpochDay();
                return (days * 86_400 + hour * 3_600L + minute * 60L + second) * TICKS_PER_SECOND + fraction;
            }
        }
        return EdmCodec.toTicks(OffsetDateTime.parse(text).toInstant());
    }

    /** The decimal number in text[from, to), or -1 when it is not all digits. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * The row as an insert's JSON body: its keys and every property with a value, typed as {@link RowJson}
     * writes them (the service's own forms, see {@link WireForm}); the Timestamp is the service's, never sent.
     */
    static void write(Row row, OutputStream out) throws IOException {
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            json.writeStartObject();
            json.writeStringField("PartitionKey", row.partitionKey());
            json.writeStringField("RowKey", row.rowKey());
            for (RowProperty p : row.properties()) {
                if (p.value() != null) { // the service stores no nulls: an absent property reads back the same way
                    RowJson.write(json, p);
                }
            }
            json.writeEndObject();
        }
    }

    private static void expect(boolean ok) throws IOException {
        if (!ok) {
            throw new IOException("not a query response");
        }
    }
}
