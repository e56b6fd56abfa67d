package io.tablescan.sink;

import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.Property;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows between the wire (Avro) and the SPI. The value types are the same on both sides except BINARY, a
 * ByteBuffer in Avro and a byte[] for sinks (a plugin should not have to care about buffer positions). A DateTime's
 * or Int64's service text, where it is not canonical, rides along on both sides ({@link RowProperty#text()}).
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
            properties.add(new RowProperty(p.getName(), TO_SPI[p.getType().ordinal()], toSpi(p.getValue()), p.getText()));
        }
        return properties;
    }

    /** A row's properties as an entity record holds them. */
    public static List<Property> toWire(List<RowProperty> properties) {
        List<Property> wire = new ArrayList<>(properties.size());
        for (RowProperty p : properties) {
            Object value = p.value() instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : p.value();
            wire.add(new Property(p.name(), TO_WIRE[p.type().ordinal()], value, p.text()));
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
