package io.tablescan.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ValueText;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Entities as the Table service's JSON (minimal metadata): the rows of a query response, read token by token
 * from the service's own text (a DateTime's text straight into ticks, an Int64's string into a long, each keeping
 * a text that is not the canonical form: see {@link RowProperty#text()}), and a row as the body of an insert. A value's type is its {@code Name@odata.type} annotation, else what JSON alone
 * says (string, Int32 for an integer, Double for a fraction, Boolean).
 */
final class EntityJson {
    private static final String ANNOTATION = "@odata.type";
    private static final JsonFactory JSON = JsonFactory.builder().build();

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

    /** The row of a point read's response body: one entity. */
    static Row row(byte[] body) throws IOException {
        try (JsonParser json = JSON.createParser(body)) {
            expect(json.nextToken() == JsonToken.START_OBJECT);
            return entity(json);
        }
    }

    private static Row entity(JsonParser json) throws IOException {
        String partitionKey = null;
        String rowKey = null;
        Long timestamp = null;
        String etag = null;
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
                timestamp = ValueText.ticks(json.getText());
            } else if (name.equals("odata.etag")) {
                etag = json.getText();
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
        return new Row(partitionKey, rowKey, properties, timestamp, etag);
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
                case "Edm.Int64" -> new RowProperty(name, EdmType.INT64, Long.valueOf(text), text);
                case "Edm.Double" -> new RowProperty(name, EdmType.DOUBLE, Double.valueOf(text)); // NaN, Infinity too
                case "Edm.DateTime" -> new RowProperty(name, EdmType.DATETIME, ValueText.ticks(text), text);
                case "Edm.Guid" -> new RowProperty(name, EdmType.GUID, text);
                case "Edm.Binary" -> new RowProperty(name, EdmType.BINARY, Base64.getDecoder().decode(text));
                case "Edm.String" -> new RowProperty(name, EdmType.STRING, text);
                case "Edm.Int32" -> new RowProperty(name, EdmType.INT32, Integer.valueOf(text));
                default -> throw new IOException("property " + name + " has an unsupported type " + annotation);
            };
        } catch (IllegalArgumentException | java.time.DateTimeException e) { // NumberFormatException, bad base64, date
            throw new IOException("property " + name + " is not a valid " + annotation);
        }
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
