package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.azure.WireForm;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.QuoteMode;

/**
 * Rows as CSV (RFC 4180: comma, CRLF, every value in double quotes): a header of the export's columns, then each
 * value in the text the service sends for it (DateTime with 7 fraction digits, Binary as base64, Double as Java's
 * shortest round-trip form, "NaN" and the infinities as the service spells them). A property the row does not have
 * is an empty field without quotes; an empty string is {@code ""}: readers such as DuckDB tell them apart as NULL
 * and ''. For spreadsheets and {@code COPY FROM}: a CSV file is not read back into typed rows.
 */
final class CsvFile implements DataFileFormat {
    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setQuoteMode(QuoteMode.ALL_NON_NULL)
            .setNullString(null).get();

    private final TableSchema schema;

    CsvFile(TableSchema schema) {
        this.schema = schema;
    }

    @Override
    public String extension() {
        return FileFormat.CSV.extension();
    }

    @Override
    public Output open(OutputStream out) throws IOException {
        CSVPrinter printer = new CSVPrinter(new OutputStreamWriter(out, StandardCharsets.UTF_8), FORMAT);
        printer.printRecord(schema.columns().stream().map(TableSchema.Column::name).toList());
        Map<String, EnumMap<EdmType, int[]>> index = schema.index();
        int width = schema.columns().size();
        return new Output() {
            @Override
            public long add(byte[] rowJson) throws IOException {
                Row row = RowJson.parse(rowJson);
                String[] values = new String[width];
                values[0] = row.partitionKey();
                values[1] = row.rowKey();
                values[2] = row.timestamp() == null ? null : WireForm.dateTime(row.timestamp());
                for (RowProperty p : row.properties()) {
                    if (p.value() != null) {
                        values[schema.column(index, p)] = WireForm.text(p);
                    }
                }
                printer.printRecord((Object[]) values);
                return rowJson.length;
            }

            @Override
            public void finish() throws IOException {
                printer.flush();
            }
        };
    }

    @Override
    public long read(String name, byte[] data, Consumer<Row> each) {
        throw new BackupException(BackupException.Kind.BAD_INPUT, name + " is CSV, which tablescan does not read "
                + "back (its values lose their types): import or verify an export in jsonl or parquet");
    }
}
