package io.tablescan.spi;

/**
 * One typed property of a row. The value's Java type follows the EDM type, so a sink never guesses:
 * STRING and GUID {@link String}, INT32 {@link Integer}, INT64 {@link Long}, DOUBLE {@link Double} (NaN and
 * infinities included), BOOLEAN {@link Boolean}, BINARY {@code byte[]}, DATETIME {@link Long} 100-nanosecond
 * ticks since 1970-01-01T00:00:00Z (the service's precision; an {@code Instant} would lose nothing but cost a
 * conversion per value). A null value is a property the row has without a value.
 */
public record RowProperty(String name, EdmType type, Object value) {}
