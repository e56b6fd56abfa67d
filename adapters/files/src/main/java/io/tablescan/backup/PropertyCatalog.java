package io.tablescan.backup;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What properties a table's rows hold, as seen row by row: for each property name, each EDM type it was seen with
 * and how often, split by whether a value fits the typed column a Parquet file gives it (a DateTime within a
 * nanosecond timestamp's range, 1677-09-21 to 2262-04-11, in the service's canonical text; a Guid in the canonical lower-case
 * form a UUID column gives back; an Int64 in its canonical text) or must be kept as the service's text. The same
 * rows give the same catalog, whatever their order.
 */
public final class PropertyCatalog {
    /** Ticks (100 ns) a nanosecond timestamp in a signed 64-bit number can hold, either side of 1970. */
    static final long MAX_NANO_TICKS = Long.MAX_VALUE / 100;
    private static final Pattern CANONICAL_GUID = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final Map<String, EnumMap<EdmType, Seen>> properties = new TreeMap<>();
    private long rows;
    private long timestamps;

    /**
     * How often one property was seen with one type (values that fit its typed column, and the others), and the
     * sizes of those values as the service counts an entity's size ({@link #valueBytes}).
     */
    public static final class Seen {
        long typed;
        long text;
        long bytes;
        long minBytes = Long.MAX_VALUE;
        long maxBytes;

        public long bytes() {
            return bytes;
        }

        public long minBytes() {
            return minBytes;
        }

        public long maxBytes() {
            return maxBytes;
        }

        public long count() {
            return typed + text;
        }

        public long typed() {
            return typed;
        }

        public long text() {
            return text;
        }
    }

    public void add(Row row) {
        rows++;
        if (row.timestamp() != null) {
            timestamps++;
        }
        for (RowProperty p : row.properties()) {
            if (p.value() == null) {
                continue; // the service stores no nulls
            }
            Seen seen = properties.computeIfAbsent(p.name(), n -> new EnumMap<>(EdmType.class))
                    .computeIfAbsent(p.type(), t -> new Seen());
            if (fitsTyped(p)) {
                seen.typed++;
            } else {
                seen.text++;
            }
            long size = valueBytes(p);
            seen.bytes += size;
            seen.minBytes = Math.min(seen.minBytes, size);
            seen.maxBytes = Math.max(seen.maxBytes, size);
        }
    }

    /** Adds what {@code other} saw. */
    public void merge(PropertyCatalog other) {
        rows += other.rows;
        timestamps += other.timestamps;
        other.properties.forEach((name, types) -> types.forEach((type, seen) -> {
            Seen mine = properties.computeIfAbsent(name, n -> new EnumMap<>(EdmType.class))
                    .computeIfAbsent(type, t -> new Seen());
            mine.typed += seen.typed;
            mine.text += seen.text;
            mine.bytes += seen.bytes;
            mine.minBytes = Math.min(mine.minBytes, seen.minBytes);
            mine.maxBytes = Math.max(mine.maxBytes, seen.maxBytes);
        }));
    }

    public long rows() {
        return rows;
    }

    /** Rows read with the service's Timestamp. */
    public long timestamps() {
        return timestamps;
    }

    /** Each property, by name in ordinal order, with its types in {@link EdmType}'s order. */
    public Map<String, EnumMap<EdmType, Seen>> properties() {
        return properties;
    }

    /**
     * A value's size as the service's entity-size formula counts it: a String 4 bytes and 2 a UTF-16 unit, Binary 4
     * and its bytes, Int32 4, Int64, Double and DateTime 8, Guid 16, Boolean 1.
     */
    public static long valueBytes(RowProperty p) {
        return switch (p.type()) {
            case STRING -> 4 + 2L * ((String) p.value()).length();
            case BINARY -> 4 + ((byte[]) p.value()).length;
            case INT32 -> 4;
            case INT64, DOUBLE, DATETIME -> 8;
            case GUID -> 16;
            case BOOLEAN -> 1;
        };
    }

    /**
     * A row's size as the service counts it toward its 1 MiB limit: 4 bytes, 2 a UTF-16 unit of both keys, and for
     * each property (the Timestamp too, when read) 8 bytes, 2 a unit of its name and its value's size.
     */
    public static long entityBytes(Row row) {
        long size = 4 + 2L * (row.partitionKey().length() + row.rowKey().length());
        if (row.timestamp() != null) {
            size += 8 + 2 * "Timestamp".length() + 8;
        }
        for (RowProperty p : row.properties()) {
            if (p.value() != null) {
                size += 8 + 2L * p.name().length() + valueBytes(p);
            }
        }
        return size;
    }

    public static boolean fitsTyped(RowProperty p) {
        return switch (p.type()) {
            case DATETIME -> (Long) p.value() >= -MAX_NANO_TICKS && (Long) p.value() <= MAX_NANO_TICKS && p.text() == null;
            case GUID -> CANONICAL_GUID.matcher((String) p.value()).matches();
            case INT64 -> p.text() == null;
            default -> true;
        };
    }
}
