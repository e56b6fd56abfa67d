package io.tablescan.azure;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.RowProperty;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * The Table service's own text form of typed values: what it returns and what we send, so that any other
 * client reads a copied value exactly as it reads the source's. The SDK's own forms differ (DateTime with up
 * to 9 fraction digits, whole seconds without any), which other clients read as a different string.
 */
public final class WireForm {
    /** The service's DateTime form: always 7 fraction digits (100 ns ticks) and Z. */
    private static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);

    private WireForm() {}

    /** The {@code @odata.type} a value of this type needs on the wire; null where JSON alone says it. */
    public static String odataType(EdmType type) {
        return switch (type) {
            case STRING, INT32, BOOLEAN -> null;
            case INT64 -> "Edm.Int64";
            case DOUBLE -> "Edm.Double";
            case DATETIME -> "Edm.DateTime";
            case GUID -> "Edm.Guid";
            case BINARY -> "Edm.Binary";
        };
    }

    /** The EDM type an {@code @odata.type} annotation names, or null for an unknown one. */
    public static EdmType typeOf(String odataType) {
        for (EdmType type : EdmType.values()) {
            if (odataType.equals("Edm." + name(type))) {
                return type;
            }
        }
        return null;
    }

    /** The type's name as the service spells it after {@code Edm.}: String, Int32, DateTime, ... */
    public static String name(EdmType type) {
        return switch (type) {
            case STRING -> "String";
            case INT32 -> "Int32";
            case INT64 -> "Int64";
            case DOUBLE -> "Double";
            case BOOLEAN -> "Boolean";
            case DATETIME -> "DateTime";
            case GUID -> "Guid";
            case BINARY -> "Binary";
        };
    }

    /**
     * A non-null value as text: the string the service sent for it (DateTime and Int64 as it sent them, else in
     * the canonical form; Guid, Binary, NaN and infinities), or the JSON number or literal it sends (Int32,
     * Double, Boolean). Doubles are Java's
     * shortest round-trip form, so the text names exactly one double (-0.0 included).
     */
    public static String text(RowProperty property) {
        if (property.text() != null) {
            return property.text(); // the service's own text of this DateTime or Int64
        }
        Object value = property.value();
        return switch (property.type()) {
            case STRING, GUID -> value.toString();
            case INT32, INT64, BOOLEAN -> value.toString();
            case DOUBLE -> Double.toString((Double) value);
            case DATETIME -> dateTime((Long) value);
            case BINARY -> Base64.getEncoder().encodeToString((byte[]) value);
        };
    }

    public static String dateTime(long ticks) {
        return DATE_TIME.format(EdmCodec.fromTicks(ticks));
    }

}
