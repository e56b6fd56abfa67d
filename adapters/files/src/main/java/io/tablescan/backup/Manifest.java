package io.tablescan.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code manifest.json}, written last: an export is finished exactly when it exists. It names the source (the
 * account's name as the user gave it, never a key), the scan, the row selection, and every data file with its rows,
 * bytes and SHA-256, so a reader can check each file before trusting a line of it. {@code topicPartitions}: the
 * partition count of the export's topic, which decided which {@code part-<p>-*} file holds a PartitionKey (absent
 * in exports made before it was recorded: see {@link #partitionCount()}). {@code format}: the data files' format,
 * {@code parquet} or {@code csv} (with the columns in {@code schema.json}); absent for JSON lines.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Manifest(int formatVersion, String sourceAccount, String sourceTable, String scanId, String startTime,
        String endTime, String filter, List<String> select, String fromPartition, String toPartition, long totalRows,
        List<DataFile> files, Integer topicPartitions, String format) {
    public static final String NAME = "manifest.json";
    public static final int FORMAT_VERSION = 1;
    /** A data file's name: flat, no path, so that a manifest cannot point a reader outside the export. */
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,200}\\.(?:jsonl\\.gz|parquet|csv)");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // a newer minor version may add fields

    /** One data file: its rows, its size in bytes and the SHA-256 of those bytes (lower-case hex). */
    public record DataFile(String name, long rows, long bytes, String sha256) {}

    /**
     * The export topic's partition count: recorded, or for an older manifest inferred from the highest
     * {@code part-<p>} in the file names (a reader that relies on it checks each row against it).
     */
    public int partitionCount() {
        if (topicPartitions != null) {
            return topicPartitions;
        }
        int highest = -1;
        for (DataFile file : files) {
            highest = Math.max(highest, PartFile.partitionOf(file.name()));
        }
        return highest + 1;
    }

    /**
     * A manifest for data files another tool wrote, with none of their own: every file directly in {@code store}
     * whose name ends in {@code format}'s extension, in name order, with its size, SHA-256 and rows as read now (an
     * import then checks each file against them as for an export's). Its scan id names the files' listing, so the
     * same files give the same id, as a resumed import needs.
     */
    public static Manifest ofFiles(BackupStore store, FileFormat format) {
        if (format == FileFormat.CSV) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, "CSV files cannot be imported (their values "
                    + "lose their types): import jsonl or parquet files");
        }
        List<DataFile> files = new java.util.ArrayList<>();
        java.security.MessageDigest listing = PartFile.sha256();
        for (String name : store.list()) {
            if (!name.endsWith(format.extension()) || name.endsWith("/")) {
                continue;
            }
            if (!FILE_NAME.matcher(name).matches()) {
                throw new BackupException(BackupException.Kind.BAD_INPUT, name + " in " + store.describe()
                        + " is not a plain file name (letters, digits, '.', '_' and '-', at most 200)");
            }
            byte[] data = store.read(name);
            long rows = format.reader().read(name, data, row -> {});
            String sha = PartFile.sha256(data);
            files.add(new DataFile(name, rows, data.length, sha));
            listing.update((name + "\n" + sha + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (files.isEmpty()) {
            throw new BackupException(BackupException.Kind.NOT_FOUND, "no " + NAME + " and no *" + format.extension()
                    + " file in " + store.describe());
        }
        long rows = files.stream().mapToLong(DataFile::rows).sum();
        String id = "files-" + java.util.HexFormat.of().formatHex(listing.digest()).substring(0, 12);
        return new Manifest(FORMAT_VERSION, null, null, id, null, null, null, null, null, null, rows, List.copyOf(files),
                null, format == FileFormat.JSONL ? null : format.label());
    }

    /** Whether this manifest lists files another tool wrote ({@link #ofFiles}), not an export's. */
    public boolean ofOtherFiles() {
        return sourceTable == null;
    }

    /** The data files' format. */
    public FileFormat fileFormat() {
        return FileFormat.of(format);
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads and checks a manifest: anything unusable is a {@link BackupException} naming what is wrong. */
    public static Manifest parse(byte[] json) {
        Manifest manifest;
        try {
            manifest = JSON.readValue(json, Manifest.class);
        } catch (IOException e) {
            throw corrupt("it is not a manifest's JSON");
        }
        if (manifest == null) {
            throw corrupt("it is empty");
        }
        if (manifest.formatVersion() != FORMAT_VERSION) {
            throw corrupt("format version " + manifest.formatVersion() + " is not " + FORMAT_VERSION
                    + ", the one this tablescan reads");
        }
        if (manifest.files() == null || manifest.sourceTable() == null || manifest.scanId() == null) {
            throw corrupt("it lacks files, sourceTable or scanId");
        }
        FileFormat format;
        try {
            format = manifest.fileFormat();
        } catch (IllegalArgumentException e) {
            throw corrupt("its format " + e.getMessage());
        }
        long rows = 0;
        var names = new HashSet<String>();
        for (DataFile file : manifest.files()) {
            if (file == null || file.name() == null || !FILE_NAME.matcher(file.name()).matches()) {
                throw corrupt("a file name is not a plain *.jsonl.gz, *.parquet or *.csv name");
            }
            if (!file.name().endsWith(format.extension())) {
                throw corrupt(file.name() + " is not a " + format.label() + " file, the manifest's format");
            }
            if (!names.add(file.name())) {
                throw corrupt(file.name() + " is listed twice");
            }
            if (file.rows() < 0 || file.bytes() < 0 || file.sha256() == null
                    || !file.sha256().matches("[0-9a-f]{64}")) {
                throw corrupt(file.name() + " has no valid rows, bytes or sha256");
            }
            rows += file.rows();
        }
        if (manifest.topicPartitions() != null && manifest.topicPartitions() < 1) {
            throw corrupt("topicPartitions is " + manifest.topicPartitions() + ", not a partition count");
        }
        if (rows != manifest.totalRows()) {
            throw corrupt("its files hold " + rows + " rows, its totalRows says " + manifest.totalRows());
        }
        return manifest;
    }

    private static BackupException corrupt(String why) {
        return new BackupException(BackupException.Kind.CORRUPT, NAME + " is not valid: " + why);
    }
}
