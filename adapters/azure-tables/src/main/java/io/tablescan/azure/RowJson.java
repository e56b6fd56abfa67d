package io.tablescan.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ValueText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row as the JSON the Table service's REST API accepts for an insert, so that any tool reads it: PartitionKey,
 * RowKey, every property with a value, and {@code Name@odata.type} before each one that JSON alone does not type
 * (all but String, Int32 and Boolean): Int64 as a string, DateTime with 7 fraction digits (each as the service sent
 * it, where that differs: {@link RowProperty#text()}), Double as a number or
 * "NaN"/"Infinity"/"-Infinity", Guid as a string, Binary as base64 (see {@link WireForm}). The service's Timestamp,
 * when the row was read with one, follows the keys as an Edm.DateTime for reference; it reads back as the row's
 * timestamp, never as a property, so no write restores it.
 */
public final class RowJson {
    private static final String ANNOTATION = "@odata.type";
    private static final JsonFactory JSON = JsonFactory.builder().build();

    private RowJson() {}

    /** The row's JSON, UTF-8. */
    public static byte[] toJson(Row row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("PartitionKey", row.partitionKey());
            json.writeStringField("RowKey", row.rowKey());
            if (row.timestamp() != null) { // for reference: the service sets its own on every write
                write(json, new RowProperty("Timestamp", EdmType.DATETIME, row.timestamp()));
            }
            for (RowProperty p : row.properties()) {
                if (p.value() != null) { // the service stores no nulls: absent reads back the same
                    write(json, p);
                }
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // to memory: cannot happen
        }
        return out.toByteArray();
    }

    /** The row's keys as a JSON array {@code ["PartitionKey","RowKey"]}, UTF-8: a record key any client can parse. */
    public static byte[] keysJson(Row row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartArray();
            json.writeString(row.partitionKey());
            json.writeString(row.rowKey());
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The row's PartitionKey as a JSON array {@code ["PartitionKey"]}, UTF-8: a record key shared by a partition. */
    public static byte[] partitionKeyJson(Row row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartArray();
            json.writeString(row.partitionKey());
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static void write(JsonGenerator json, RowProperty p) throws IOException {
        String odataType = WireForm.odataType(p.type());
        if (odataType != null) {
            json.writeStringField(p.name() + ANNOTATION, odataType);
        }
        switch (p.type()) {
            case INT32 -> json.writeNumberField(p.name(), (Integer) p.value());
            case BOOLEAN -> json.writeBooleanField(p.name(), (Boolean) p.value());
            case DOUBLE -> {
                double d = (Double) p.value();
                if (Double.isFinite(d)) {
                    json.writeFieldName(p.name());
                    json.writeRawValue(Double.toString(d)); // Java's shortest round-trip form: exactly this double
                } else {
                    json.writeStringField(p.name(), Double.toString(d)); // NaN, Infinity, -Infinity
                }
            }
            default -> json.writeStringField(p.name(), WireForm.text(p));
        }
    }

    /**
     * Reads a row back from its JSON (the form above, or the service's own with {@code odata.*} metadata); the
     * service's Timestamp is not a property of the row: it becomes the row's timestamp.
     *
     * @throws IllegalArgumentException naming what is wrong, for anything else
     */
    public static Row parse(byte[] utf8) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        try (JsonParser json = JSON.createParser(utf8)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object");
            }
            for (JsonToken token = json.nextToken(); token != JsonToken.END_OBJECT; token = json.nextToken()) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if (name.endsWith(ANNOTATION)) {
                    if (value != JsonToken.VALUE_STRING) {
                        throw new IllegalArgumentException(name + " is not a string");
                    }
                    annotations.put(name.substring(0, name.length() - ANNOTATION.length()), json.getText());
                    continue;
                }
                values.put(name, switch (value) {
                    case VALUE_STRING -> json.getText();
                    case VALUE_TRUE, VALUE_FALSE -> json.getBooleanValue();
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new Number(json.getText(), value == JsonToken.VALUE_NUMBER_INT);
                    case VALUE_NULL -> null;
                    default -> throw new IllegalArgumentException("property " + name + " is not a JSON value of a table");
                });
            }
            if (json.nextToken() != null) {
                throw new IllegalArgumentException("more after the JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // from memory: cannot happen
        }
        if (!(values.get("PartitionKey") instanceof String pk) || !(values.get("RowKey") instanceof String rk)) {
            throw new IllegalArgumentException("no PartitionKey or RowKey string");
        }
        List<RowProperty> properties = new ArrayList<>();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String name = e.getKey();
            if (name.equals("PartitionKey") || name.equals("RowKey") || name.equals("Timestamp")
                    || name.startsWith("odata.") || e.getValue() == null) {
                continue;
            }
            properties.add(property(name, e.getValue(), annotations.get(name)));
        }
        return new Row(pk, rk, properties, timestamp(values.get("Timestamp"), annotations.get("Timestamp")));
    }

    private static Long timestamp(Object value, String annotation) {
        if (value == null) {
            return null;
        }
        RowProperty p = property("Timestamp", value, annotation == null ? "Edm.DateTime" : annotation);
        check(p.type() == EdmType.DATETIME, "Timestamp", annotation);
        return (Long) p.value();
    }

    private static RowProperty property(String name, Object value, String annotation) {
        if (value instanceof Boolean b) {
            check(annotation == null || annotation.equals("Edm.Boolean"), name, annotation);
            return new RowProperty(name, EdmType.BOOLEAN, b);
        }
        String text = value instanceof Number n ? n.text() : (String) value;
        // A number without annotation is an Int32 or a Double, as the service types it.
        EdmType type = annotation != null ? WireForm.typeOf(annotation)
                : value instanceof Number n ? (n.integer() ? EdmType.INT32 : EdmType.DOUBLE) : EdmType.STRING;
        check(type != null && type != EdmType.BOOLEAN && (!(value instanceof Number)
                || type == EdmType.INT32 || type == EdmType.INT64 || type == EdmType.DOUBLE), name, annotation);
        try {
            return new RowProperty(name, type, switch (type) {
                case STRING, GUID -> text;
                case INT32 -> Integer.valueOf(text);
                case INT64 -> Long.valueOf(text);
                case DOUBLE -> Double.valueOf(text);
                case DATETIME -> ValueText.ticks(text);
                case BINARY -> Base64.getDecoder().decode(text);
                case BOOLEAN -> throw new IllegalStateException("checked above");
            }, text); // a DateTime's or Int64's text as written, where it is not the canonical form
        } catch (IllegalArgumentException | DateTimeException e) { // NumberFormatException, bad base64, bad date
            throw new IllegalArgumentException("property " + name + " is not a valid " + WireForm.name(type));
        }
    }

    /** A JSON number's text, typed only once its annotation is known (so that no digit is lost on the way). */
    private record Number(String text, boolean integer) {}

    private static void check(boolean ok, String name, String annotation) {
        if (!ok) {
            throw new IllegalArgumentException("property " + name + " has an unknown or wrong type " + annotation);
        }
    }
}
