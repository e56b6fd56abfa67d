package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.spi.Row;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * Rows as JSON lines (the service's wire form, see {@link RowJson}), gzip-compressed. The same rows give the same
 * bytes (gzip's header carries no time or name from Java), so a rerun writes an identical file.
 */
final class JsonLinesGzip implements DataFileFormat {
    @Override
    public String extension() {
        return ".jsonl.gz";
    }

    @Override
    public Output open(OutputStream out) throws IOException {
        GZIPOutputStream gzip = new GZIPOutputStream(out, 1 << 16);
        return new Output() {
            @Override
            public long add(byte[] rowJson) throws IOException {
                gzip.write(rowJson);
                gzip.write('\n');
                return rowJson.length + 1;
            }

            @Override
            public void finish() throws IOException {
                gzip.finish();
            }
        };
    }

    @Override
    public long read(String name, byte[] data, Consumer<Row> each) {
        long count = 0;
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(new ByteArrayInputStream(data), 1 << 16), decoder), 1 << 16)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                count++;
                try {
                    each.accept(RowJson.parse(line.getBytes(StandardCharsets.UTF_8)));
                } catch (IllegalArgumentException e) {
                    throw DataFileReader.bad(name, "line " + count + " is not a row: " + e.getMessage());
                }
            }
        } catch (CharacterCodingException e) {
            throw DataFileReader.bad(name, "line " + (count + 1) + " is not UTF-8");
        } catch (ZipException | java.io.EOFException e) {
            throw DataFileReader.bad(name, "it is not a complete gzip file");
        } catch (IOException e) {
            throw DataFileReader.bad(name, "it cannot be read: " + e.getMessage());
        }
        return count;
    }
}
