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
 * nanosecond timestamp's years, 1678 to 2261, in the service's canonical text; a Guid in the canonical lower-case
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

    /** How often one property was seen with one type: values that fit its typed column, and the others. */
    public static final class Seen {
        long typed;
        long text;

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

    public static boolean fitsTyped(RowProperty p) {
        return switch (p.type()) {
            case DATETIME -> Math.abs((Long) p.value()) <= MAX_NANO_TICKS && p.text() == null;
            case GUID -> CANONICAL_GUID.matcher((String) p.value()).matches();
            case INT64 -> p.text() == null;
            default -> true;
        };
    }
}
