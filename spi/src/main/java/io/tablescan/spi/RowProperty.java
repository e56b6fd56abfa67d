package io.tablescan.spi;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * One typed property of a row. The value's Java type follows the EDM type, so a sink never guesses:
 * STRING and GUID {@link String}, INT32 {@link Integer}, INT64 {@link Long}, DOUBLE {@link Double} (NaN and
 * infinities included), BOOLEAN {@link Boolean}, BINARY {@code byte[]}, DATETIME {@link Long} 100-nanosecond
 * ticks since 1970-01-01T00:00:00Z (the service's precision; an {@code Instant} would lose nothing but cost a
 * conversion per value). A null value is a property the row has without a value.
 *
 * <p>Equal when name, type and value are equal; a BINARY value by its bytes (an array's own equals would
 * compare identities, and two reads of one row would differ).
 */
public record RowProperty(String name, EdmType type, Object value) {
    @Override
    public boolean equals(Object other) {
        return other instanceof RowProperty p && name.equals(p.name) && type == p.type
                && (value instanceof byte[] a && p.value instanceof byte[] b ? Arrays.equals(a, b)
                        : Objects.equals(value, p.value));
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, value instanceof byte[] bytes ? Arrays.hashCode(bytes) : value);
    }

    @Override
    public String toString() {
        Object shown = value instanceof byte[] bytes ? "base64:" + Base64.getEncoder().encodeToString(bytes) : value;
        return name + "=" + type + ":" + shown;
    }
}
