package io.tablescan.backup;

import io.tablescan.spi.Row;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Consumer;

/**
 * How a data file holds its rows: how they are written, read back and checked. An export's files are in one
 * format; today's, and the only one, is {@link JsonLinesGzip}.
 */
public interface DataFileFormat {
    DataFileFormat JSON_LINES_GZIP = new JsonLinesGzip();

    /** The end of a data file's name in this format, such as {@code .jsonl.gz}. */
    String extension();

    /** Starts a file whose bytes go to {@code out}. */
    Output open(OutputStream out) throws IOException;

    /**
     * Reads every row of {@code data} in order, handing each to {@code each}; returns how many. A file that is not
     * in this format is a {@link BackupException} of kind CORRUPT naming {@code name} and the reason.
     */
    long read(String name, byte[] data, Consumer<Row> each);

    /** One file being written. */
    interface Output {
        /** Adds a row, given as the row's JSON (as the topic holds it); returns the bytes it took before encoding. */
        long add(byte[] rowJson) throws IOException;

        /** Ends the file: every byte is in the stream. */
        void finish() throws IOException;
    }
}
