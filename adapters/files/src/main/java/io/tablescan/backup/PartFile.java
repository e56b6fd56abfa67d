package io.tablescan.backup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** One data file being built in memory, in today's {@link DataFileFormat}: the same rows give the same bytes. */
final class PartFile {
    /** Rows per file at most: about 1 to 40 MB compressed for typical rows. */
    static final int MAX_ROWS = 100_000;
    /** Uncompressed bytes after which a file ends: a file never gets much above 64 MB, compressed or not. */
    static final long MAX_UNCOMPRESSED = 64L * 1024 * 1024 - 1024 * 1024;

    private static final DataFileFormat FORMAT = DataFileFormat.JSON_LINES_GZIP;

    private final String name;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 20);
    private final DataFileFormat.Output out;
    private long rows;
    private long uncompressed;

    PartFile(String name) {
        this.name = name;
        try {
            out = FORMAT.open(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // to memory: cannot happen
        }
    }

    static String name(int partition, int sequence) {
        return String.format("part-%05d-%05d", partition, sequence) + FORMAT.extension();
    }

    /** A file's name in the export run {@code runId}: no other run writes a file of this name. */
    static String name(int partition, int sequence, String runId) {
        return String.format("part-%05d-%05d-%s", partition, sequence, runId) + FORMAT.extension();
    }

    /** The topic partition a file name of {@link #name} is of (with a run id or, as before, without); -1 for another. */
    static int partitionOf(String fileName) {
        var m = java.util.regex.Pattern.compile("part-(\\d{1,9})-\\d+(?:-[0-9a-z]{1,32})?\\.jsonl\\.gz")
                .matcher(fileName);
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    void add(byte[] json) {
        try {
            uncompressed += out.add(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows++;
    }

    boolean full() {
        return rows >= MAX_ROWS || uncompressed >= MAX_UNCOMPRESSED;
    }

    long rows() {
        return rows;
    }

    /** Finishes the file: its bytes and its entry in the manifest. */
    Finished finish() {
        try {
            out.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] data = bytes.toByteArray();
        return new Finished(data, new Manifest.DataFile(name, rows, data.length, sha256(data)));
    }

    record Finished(byte[] data, Manifest.DataFile entry) {}

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
