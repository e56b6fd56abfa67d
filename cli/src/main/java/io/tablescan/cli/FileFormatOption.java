package io.tablescan.cli;

import io.tablescan.backup.FileFormat;
import picocli.CommandLine.Option;

/** The format of an export's data files. */
final class FileFormatOption {
    @Option(names = "--format", paramLabel = "FORMAT", description = "The data files' format: jsonl (gzip'd JSON "
            + "lines, the default: what import, verify and backup sets read), parquet (typed columns, for DuckDB, "
            + "Spark, pandas; import reads it too) or csv (the service's text forms, a header of the same columns). "
            + "Parquet and CSV list their columns in schema.json.")
    String format;

    /** The format asked for; one line and exit 2 for an unknown one. */
    FileFormat value() {
        return parse(format);
    }

    /** The format {@code --format} names (null: JSON lines); one line and exit 2 for an unknown one. */
    static FileFormat parse(String format) {
        try {
            return FileFormat.of(format);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, "--format: " + e.getMessage());
        }
    }
}
