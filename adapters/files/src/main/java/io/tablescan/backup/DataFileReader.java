package io.tablescan.backup;

import io.tablescan.spi.Row;
import java.util.function.Consumer;

/**
 * Checks one data file against its manifest entry before a row of it is trusted: size, SHA-256, the file's format
 * (every line a row), and the row count. Any mismatch is a {@link BackupException} that names the file and the reason.
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
        long count = FileFormat.ofFile(name).reader().read(name, data, each); // a manifest's names end in a format's
        if (count != entry.rows()) {
            throw bad(name, "it holds " + count + " rows, the manifest says " + entry.rows());
        }
    }

    static BackupException bad(String file, String why) {
        return new BackupException(BackupException.Kind.CORRUPT, file + " is not valid: " + why);
    }
}
