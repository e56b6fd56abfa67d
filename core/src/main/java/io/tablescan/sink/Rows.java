package io.tablescan.sink;

import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.Property;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ValueText;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows between the wire (Avro) and the SPI. The value types are the same on both sides except BINARY, a
 * ByteBuffer in Avro and a byte[] for sinks (a plugin should not have to care about buffer positions), and a
 * DateTime or Int64 whose service text is not canonical: a string in Avro (the union has one), its value and
 * that text for sinks ({@link RowProperty#text()}).
 */
public final class Rows {
    private static final EdmType[] TO_SPI = new EdmType[io.tablescan.schema.EdmType.values().length];
    private static final io.tablescan.schema.EdmType[] TO_WIRE = new io.tablescan.schema.EdmType[EdmType.values().length];

    static {
        // The same symbols by name; an EDM type added on one side only fails here, at class load, not mid-copy.
        for (io.tablescan.schema.EdmType wire : io.tablescan.schema.EdmType.values()) {
            EdmType spi = EdmType.valueOf(wire.name());
            TO_SPI[wire.ordinal()] = spi;
            TO_WIRE[spi.ordinal()] = wire;
        }
    }

    private Rows() {}

    /** The rows of an entity batch, all of its partition. */
    public static List<Row> of(EntityBatch batch) {
        return of(batch.getPartitionKey(), batch.getEntities());
    }

    /** The rows of one partition's entities (an entity batch's, or a part of an entity page). */
    public static List<Row> of(String partitionKey, List<Entity> entities) {
        List<Row> rows = new ArrayList<>(entities.size());
        for (Entity entity : entities) {
            rows.add(new Row(partitionKey, entity.getRowKey(), of(entity.getProperties()), entity.getTimestamp()));
        }
        return rows;
    }

    /** An entity record's properties as sinks see them. */
    public static List<RowProperty> of(List<Property> wire) {
        List<RowProperty> properties = new ArrayList<>(wire.size());
        for (Property p : wire) {
            EdmType type = TO_SPI[p.getType().ordinal()];
            Object value = p.getValue();
            if (value instanceof CharSequence text && (type == EdmType.DATETIME || type == EdmType.INT64)) {
                String s = text.toString(); // the service's own text: see toWire
                properties.add(new RowProperty(p.getName(), type,
                        type == EdmType.DATETIME ? ValueText.ticks(s) : Long.parseLong(s), s));
            } else {
                properties.add(new RowProperty(p.getName(), type, toSpi(value)));
            }
        }
        return properties;
    }

    /** A row's properties as an entity record holds them. */
    public static List<Property> toWire(List<RowProperty> properties) {
        List<Property> wire = new ArrayList<>(properties.size());
        for (RowProperty p : properties) {
            Object value = p.text() != null ? p.text() // a DateTime or Int64 as the service sent it: a string
                    : p.value() instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : p.value();
            wire.add(new Property(p.name(), TO_WIRE[p.type().ordinal()], value));
        }
        return wire;
    }

    private static Object toSpi(Object value) {
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes); // duplicate: the batch's buffer keeps its position
            return bytes;
        }
        return value;
    }
}
