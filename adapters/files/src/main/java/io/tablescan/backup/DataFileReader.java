package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.spi.Row;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Checks one data file against its manifest entry before a row of it is trusted: size, SHA-256, gzip, every line
 * a row, and the row count. Any mismatch is a {@link BackupException} that names the file and the reason.
 */
final class DataFileReader {
    private DataFileReader() {}

    /** The bytes of a file the manifest lists: a missing one makes the export corrupt, not absent. */
    static byte[] read(BackupStore store, Manifest.DataFile entry) {
        try {
            return store.read(entry.name());
        } catch (BackupException e) {
            if (e.kind() == BackupException.Kind.NOT_FOUND) {
                throw bad(entry.name(), "it is listed in " + Manifest.NAME + " but missing from " + store.describe());
            }
            throw e;
        }
    }

    /** Checks the file, handing each row to {@code each} (which must keep nothing if the check may still fail). */
    static void check(Manifest.DataFile entry, byte[] data, Consumer<Row> each) {
        String name = entry.name();
        if (data.length != entry.bytes()) {
            throw bad(name, "it has " + data.length + " bytes, the manifest says " + entry.bytes()
                    + (data.length < entry.bytes() ? " (truncated?)" : ""));
        }
        if (!PartFile.sha256(data).equals(entry.sha256())) {
            throw bad(name, "its SHA-256 is not the manifest's");
        }
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
                    throw bad(name, "line " + count + " is not a row: " + e.getMessage());
                }
            }
        } catch (CharacterCodingException e) {
            throw bad(name, "line " + (count + 1) + " is not UTF-8");
        } catch (ZipException | java.io.EOFException e) {
            throw bad(name, "it is not a complete gzip file");
        } catch (IOException e) {
            throw bad(name, "it cannot be read: " + e.getMessage());
        }
        if (count != entry.rows()) {
            throw bad(name, "it holds " + count + " rows, the manifest says " + entry.rows());
        }
    }

    private static BackupException bad(String file, String why) {
        return new BackupException(BackupException.Kind.CORRUPT, file + " is not valid: " + why);
    }
}
