package io.tablescan.backup;

import java.util.Locale;

/**
 * The formats an export writes its data files in: gzip'd JSON lines (the default: what import, verify and backup
 * sets read), Parquet and CSV (for analytics tools; both need the table's columns, {@link TableSchema}, before a
 * file is begun). A file's format is told by the end of its name.
 */
public enum FileFormat {
    JSONL(".jsonl.gz"),
    PARQUET(".parquet"),
    CSV(".csv");

    private final String extension;

    FileFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
    }

    /** As users and manifests name it: {@code jsonl}, {@code parquet}, {@code csv}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a file can only be begun once every column of the table is known. */
    public boolean needsSchema() {
        return this != JSONL;
    }

    /** The format of {@code label} ({@code jsonl}, {@code parquet}, {@code csv}; null: JSON lines). */
    public static FileFormat of(String label) {
        if (label == null) {
            return JSONL;
        }
        for (FileFormat format : values()) {
            if (format.label().equals(label.toLowerCase(Locale.ROOT))) {
                return format;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a file format: jsonl, parquet or csv");
    }

    /** The format a data file of this name is in; null for none. */
    public static FileFormat ofFile(String name) {
        for (FileFormat format : values()) {
            if (name.endsWith(format.extension)) {
                return format;
            }
        }
        return null;
    }

    /** Writes files in this format; {@code schema} is the table's columns (null, and unused, for JSON lines). */
    public DataFileFormat writer(TableSchema schema) {
        return switch (this) {
            case JSONL -> DataFileFormat.JSON_LINES_GZIP;
            case PARQUET -> new ParquetFile(schema);
            case CSV -> new CsvFile(schema);
        };
    }

    /** Reads files in this format: their columns come with them (a CSV file cannot be read back into typed rows). */
    public DataFileFormat reader() {
        return switch (this) {
            case JSONL -> DataFileFormat.JSON_LINES_GZIP;
            case PARQUET -> new ParquetFile(null);
            case CSV -> new CsvFile(null);
        };
    }
}
