package io.tablescan.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tablescan.azure.WireForm;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.RowProperty;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of an export in Parquet or CSV ({@code schema.json} beside its manifest): {@code PartitionKey},
 * {@code RowKey} and {@code Timestamp} first, then every property the table's rows hold, by name in ordinal order.
 * A property seen with one type is one column of its name; one seen with several types is a column per type, named
 * {@code Name@Type} ({@code Price@Int64}, {@code Price@String}), so that a value is never coerced into another type.
 * Values that do not fit the typed form ({@link PropertyCatalog}: a DateTime before 1677-09-21 or after 2262-04-11, a text the
 * service sent in another than its canonical form) go to a column of the service's texts ({@code text}), named as
 * the typed one would be, with {@code @Text} after it when there is a typed one too ({@code When} and
 * {@code When@Text}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TableSchema(String scanId, String format, long rows, List<Column> columns) {
    public static final String NAME = "schema.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One column: the property it holds (null for the keys and Timestamp), that property's EDM type, whether it
     * holds the service's text of each value rather than a typed value, and in how many rows it has a value.
     */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public record Column(String name, String property, EdmType type, boolean text, long values) {
        /** The Timestamp the service keeps on every row, and the keys: no property of the row. */
        public boolean system() {
            return property == null;
        }
    }

    public static final String PARTITION_KEY = "PartitionKey";
    public static final String ROW_KEY = "RowKey";
    public static final String TIMESTAMP = "Timestamp";

    /** The columns of the rows {@code catalog} saw, in the export of scan {@code scanId} in {@code format}. */
    public static TableSchema of(PropertyCatalog catalog, String scanId, FileFormat format) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(PARTITION_KEY, null, EdmType.STRING, false, catalog.rows()));
        columns.add(new Column(ROW_KEY, null, EdmType.STRING, false, catalog.rows()));
        columns.add(new Column(TIMESTAMP, null, EdmType.DATETIME, false, catalog.timestamps()));
        catalog.properties().forEach((name, types) -> types.forEach((type, seen) -> {
            String base = types.size() == 1 ? name : name + "@" + WireForm.name(type);
            if (seen.typed() > 0) {
                columns.add(new Column(base, name, type, false, seen.typed()));
            }
            if (seen.text() > 0) {
                columns.add(new Column(seen.typed() > 0 ? base + "@Text" : base, name, type, true, seen.text()));
            }
        }));
        return new TableSchema(scanId, format.label(), catalog.rows(), List.copyOf(columns));
    }

    /** Each property's column indexes by type, {typed, text} (-1: none): where a row's value goes. */
    Map<String, EnumMap<EdmType, int[]>> index() {
        Map<String, EnumMap<EdmType, int[]>> index = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (!c.system()) {
                index.computeIfAbsent(c.property(), p -> new EnumMap<>(EdmType.class))
                        .computeIfAbsent(c.type(), t -> new int[] {-1, -1})[c.text() ? 1 : 0] = i;
            }
        }
        return index;
    }

    /** The column a row's property goes to; a property the schema lacks fails the file, never dropped. */
    int column(Map<String, EnumMap<EdmType, int[]>> index, RowProperty p) {
        EnumMap<EdmType, int[]> types = index.get(p.name());
        int[] typedAndText = types == null ? null : types.get(p.type());
        int column = typedAndText == null ? -1 : typedAndText[PropertyCatalog.fitsTyped(p) ? 0 : 1];
        if (column < 0) {
            throw new BackupException(BackupException.Kind.FAILED, "property " + p.name() + " of type "
                    + WireForm.name(p.type()) + " is not in the export's columns (" + columns.size()
                    + " columns from the scan " + scanId + ")");
        }
        return column;
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static TableSchema parse(byte[] json) {
        try {
            return JSON.readValue(json, TableSchema.class);
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.CORRUPT, NAME + " is not an export's schema ("
                    + e.getMessage() + ")");
        }
    }
}
