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
 * <p>{@code text}: for a DATETIME or INT64 value read from the service, the text the service sent for it when that
 * is not the canonical form ({@code 1601-01-01T00:00:00Z} rather than {@code 1601-01-01T00:00:00.0000000Z},
 * {@code 007} rather than {@code 7}); null otherwise. Writers send it instead of the canonical form, so any other
 * client reads a copy exactly as it reads the source. A canonical text is kept as null, so equal texts compare equal.
 *
 * <p>Equal when name, type, value and text are equal (two texts of one instant are different values to any other
 * client); a BINARY value by its bytes (an array's own equals would compare identities, and two reads of one row
 * would differ).
 */
public record RowProperty(String name, EdmType type, Object value, String text) {
    public RowProperty {
        if (text != null && (type == EdmType.DATETIME ? ValueText.canonicalDateTime(text)
                : type != EdmType.INT64 || ValueText.canonicalInt64(text))) {
            text = null; // canonical (or a type whose value is its text already): nothing to keep
        }
    }

    /** A value in its canonical form: one that did not come from the service, or whose text was canonical. */
    public RowProperty(String name, EdmType type, Object value) {
        this(name, type, value, null);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RowProperty p && name.equals(p.name) && type == p.type
                && (value instanceof byte[] a && p.value instanceof byte[] b ? Arrays.equals(a, b)
                        : Objects.equals(value, p.value)) && Objects.equals(text, p.text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, value instanceof byte[] bytes ? Arrays.hashCode(bytes) : value, text);
    }

    @Override
    public String toString() {
        Object shown = value instanceof byte[] bytes ? "base64:" + Base64.getEncoder().encodeToString(bytes) : value;
        return name + "=" + type + ":" + shown + (text == null ? "" : " (as '" + text + "')");
    }
}
