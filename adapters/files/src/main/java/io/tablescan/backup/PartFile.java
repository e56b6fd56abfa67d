package io.tablescan.backup;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One data file being written in a {@link DataFileFormat} (JSON lines unless told): the same rows give the same
 * bytes. Built in memory,
 * or streamed to a store ({@link BackupStore#open}), its size and SHA-256 counted on the way, so that memory holds
 * a buffer, never the file.
 */
public final class PartFile {
    /** Rows per file at most: about 1 to 40 MB compressed for typical rows. */
    static final int MAX_ROWS = 100_000;
    /** Uncompressed bytes after which a file ends: a file never gets much above 64 MB, compressed or not. */
    static final long MAX_UNCOMPRESSED = 64L * 1024 * 1024 - 1024 * 1024;

    private final String name;
    private final ByteArrayOutputStream bytes; // null when streamed
    private final OutputStream sink;
    private final MessageDigest digest = sha256();
    private final long[] written = {0};
    private final DataFileFormat.Output out;
    private long rows;
    private long uncompressed;

    /** A file built in memory; {@link #finish} returns its bytes. */
    PartFile(String name) {
        this(name, new ByteArrayOutputStream(1 << 20), true, DataFileFormat.JSON_LINES_GZIP);
    }

    /** A file streamed to {@code store} under {@code name}: it appears there, whole, when {@link #finish}ed. */
    public PartFile(String name, BackupStore store) {
        this(name, store, DataFileFormat.JSON_LINES_GZIP);
    }

    /** A file in {@code format} streamed to {@code store} under {@code name}. */
    public PartFile(String name, BackupStore store, DataFileFormat format) {
        this(name, store.open(name), false, format);
    }

    private PartFile(String name, OutputStream sink, boolean inMemory, DataFileFormat format) {
        this.name = name;
        this.bytes = inMemory ? (ByteArrayOutputStream) sink : null;
        this.sink = sink;
        OutputStream counted = new FilterOutputStream(sink) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                written[0] += len;
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                written[0]++;
            }

            @Override
            public void close() {
                // the sink is closed by finish, which commits it
            }
        };
        try {
            out = format.open(new DigestOutputStream(counted, digest));
        } catch (IOException e) {
            throw failed(e);
        }
    }

    static String name(int partition, int sequence) {
        return String.format("part-%05d-%05d", partition, sequence) + FileFormat.JSONL.extension();
    }

    /** A JSON lines file's name in the export run {@code runId}: no other run writes a file of this name. */
    public static String name(int partition, int sequence, String runId) {
        return name(partition, sequence, runId, FileFormat.JSONL);
    }

    /** A file's name in the export run {@code runId}, in {@code format}. */
    public static String name(int partition, int sequence, String runId, FileFormat format) {
        return String.format("part-%05d-%05d-%s", partition, sequence, runId) + format.extension();
    }

    /** The topic partition a file name of {@link #name} is of (with a run id or, as before, without); -1 for another. */
    static int partitionOf(String fileName) {
        var m = java.util.regex.Pattern.compile("part-(\\d{1,9})-\\d+(?:-[0-9a-z]{1,32})?\\.(?:jsonl\\.gz|parquet|csv)")
                .matcher(fileName);
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    public void add(byte[] json) {
        try {
            uncompressed += out.add(json);
        } catch (IOException e) {
            throw failed(e);
        }
        rows++;
    }

    public boolean full() {
        return rows >= MAX_ROWS || uncompressed >= MAX_UNCOMPRESSED;
    }

    long rows() {
        return rows;
    }

    /** Finishes the file (a streamed one is then in its store): its entry in the manifest, and its bytes if in memory. */
    public Finished finish() {
        try {
            out.finish();
            sink.close();
        } catch (IOException e) {
            throw failed(e);
        }
        return new Finished(bytes == null ? null : bytes.toByteArray(),
                new Manifest.DataFile(name, rows, written[0], HexFormat.of().formatHex(digest.digest())));
    }

    /**
     * Gives the file up after a failure: nothing appears under its name, and a folder's temporary file goes (a Blob's
     * uncommitted blocks are the service's to drop).
     */
    public void abort() {
        if (sink instanceof BackupStore.Discardable discardable) {
            discardable.discard();
        }
    }

    /** The file's entry, and its bytes when it was built in memory (else null). */
    public record Finished(byte[] data, Manifest.DataFile entry) {}

    static String sha256(byte[] data) {
        return HexFormat.of().formatHex(sha256().digest(data));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private BackupException failed(IOException e) {
        if (e.getCause() instanceof BackupException b) {
            return b;
        }
        return new BackupException(BackupException.Kind.FAILED, "cannot write " + name + " (" + e.getMessage() + ")");
    }
}
