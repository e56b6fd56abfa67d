package io.tablescan.azure;

import com.azure.data.tables.models.TableEntity;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Converts between the Azure SDK's entities and our typed rows so that every value keeps its EDM type.
 * The SDK reports metadata ({@code odata.*}, {@code x@odata.type}) among the properties: dropped on read.
 * On write every typed value goes out in the service's own form with an explicit {@code @odata.type}
 * ({@link WireForm}): the SDK writes NaN, infinities and whole doubles without a type (they would come back
 * as String or Int32) and DateTime with 9 fraction digits or none (other clients read another string).
 */
public final class EdmCodec {
    private static final String ANNOTATION = "@odata.type";
    private static final long TICKS_PER_SECOND = 10_000_000L;

    private EdmCodec() {}

    public static Row read(TableEntity entity) {
        Map<String, Object> values = entity.getProperties();
        List<RowProperty> properties = new ArrayList<>();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String name = e.getKey();
            if (isSystemOrMetadata(name)) {
                continue;
            }
            Object annotation = values.get(name + ANNOTATION);
            properties.add(toProperty(name, e.getValue(), annotation == null ? null : annotation.toString()));
        }
        OffsetDateTime timestamp = entity.getTimestamp(); // absent under a --select that leaves it out
        return new Row(entity.getPartitionKey(), entity.getRowKey(), properties,
                timestamp == null ? null : toTicks(timestamp.toInstant()), entity.getETag());
    }

    public static TableEntity write(Row row) {
        TableEntity entity = new TableEntity(row.partitionKey(), row.rowKey());
        for (RowProperty p : row.properties()) {
            Object value = p.value();
            if (value == null) {
                continue; // the service stores no nulls: an absent property reads back the same way
            }
            String odataType = WireForm.odataType(p.type());
            if (odataType == null) {
                entity.addProperty(p.name(), value); // String, Int32, Boolean: JSON alone types them
            } else {
                // A double stays a JSON number (NaN and infinities the SDK sends as strings); the rest as text.
                entity.addProperty(p.name(), p.type() == EdmType.DOUBLE ? value : WireForm.text(p));
                entity.addProperty(p.name() + ANNOTATION, odataType);
            }
        }
        return entity;
    }

    static RowProperty toProperty(String name, Object value, String annotation) {
        if ("Edm.Double".equals(annotation) && value instanceof String s) {
            return new RowProperty(name, EdmType.DOUBLE, Double.valueOf(s)); // NaN, Infinity, -Infinity
        }
        if ("Edm.Double".equals(annotation) && value instanceof Number n) {
            return new RowProperty(name, EdmType.DOUBLE, n.doubleValue());
        }
        return switch (value) {
            case null -> new RowProperty(name, EdmType.STRING, null);
            case String s -> new RowProperty(name, EdmType.STRING, s);
            case Integer i -> new RowProperty(name, EdmType.INT32, i);
            case Long l -> new RowProperty(name, EdmType.INT64, l);
            case Double d -> new RowProperty(name, EdmType.DOUBLE, d);
            case Boolean b -> new RowProperty(name, EdmType.BOOLEAN, b);
            case OffsetDateTime t -> new RowProperty(name, EdmType.DATETIME, toTicks(t.toInstant()));
            case UUID u -> new RowProperty(name, EdmType.GUID, u.toString());
            case byte[] b -> new RowProperty(name, EdmType.BINARY, b);
            default -> throw new IllegalArgumentException(
                    "property " + name + " has an unsupported type " + value.getClass().getSimpleName());
        };
    }

    private static boolean isSystemOrMetadata(String name) {
        return name.equals("PartitionKey") || name.equals("RowKey") || name.equals("Timestamp")
                || name.startsWith("odata.") || name.endsWith(ANNOTATION);
    }

    /** 100-nanosecond ticks since the Unix epoch: the service's DateTime precision. */
    public static long toTicks(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), TICKS_PER_SECOND), instant.getNano() / 100);
    }

    public static OffsetDateTime fromTicks(long ticks) {
        long seconds = Math.floorDiv(ticks, TICKS_PER_SECOND);
        long rest = Math.floorMod(ticks, TICKS_PER_SECOND);
        return Instant.ofEpochSecond(seconds, rest * 100).atOffset(ZoneOffset.UTC);
    }
}
