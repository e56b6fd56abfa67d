package io.tablescan.backup;

/**
 * Where an export's files live: a local folder or a Blob container (under a prefix). Names are flat
 * ({@code manifest.json}, {@code part-00003-00000-<run>.jsonl.gz}); each write replaces the whole file at once, so a
 * reader never sees half a file under its name.
 */
public interface BackupStore {
    /** Creates the folder or container if missing. */
    void prepare();

    boolean exists(String name);

    /** Writes {@code data} as {@code name}, replacing any file of that name. */
    void write(String name, byte[] data);

    /**
     * A file written as a stream: it appears under {@code name}, whole, replacing any file of that name, only when
     * the stream is closed; a stream never closed (a failure, a killed process) leaves nothing under the name. Write
     * failures are IOExceptions whose cause is a {@link BackupException}. This default holds the file in memory;
     * stores hold only a buffer.
     */
    /** A stream of {@link #open} that can be given up: nothing appears under its name, and what it held goes. */
    interface Discardable {
        void discard();
    }

    default java.io.OutputStream open(String name) {
        BackupStore store = this;
        return new java.io.ByteArrayOutputStream() {
            @Override
            public void close() {
                store.write(name, toByteArray());
            }
        };
    }

    /**
     * Writes {@code data} as {@code name} only if no file has that name, atomically against another writer doing
     * the same: true if this call created it, false if a file of that name was there.
     */
    boolean create(String name, byte[] data);

    /** Deletes the file; one that is not there is no error. */
    void delete(String name);

    /**
     * Deletes {@code name} only if it holds exactly {@code data}, atomically where the store can: true if it did,
     * false if it is missing or holds something else, which is left in place.
     */
    boolean deleteIfSame(String name, byte[] data);

    /** The file's bytes; a missing file is a {@link BackupException}. */
    byte[] read(String name);

    /** Where the files are, for messages: a path or a container URL without any query (never a SAS). */
    String describe();

    /** Where one file is, for messages that ask the user to act on it. */
    String describe(String name);

    /** The store of sub-folder (or sub-prefix) {@code name} of this one: a backup set's, a table's in a set. */
    default BackupStore at(String name) {
        throw new UnsupportedOperationException("this store has no sub-folders");
    }

    /**
     * The names directly in this store, sorted: files as they are, sub-folders with a trailing {@code /}; a store
     * that is not there yet is empty.
     */
    default java.util.List<String> list() {
        throw new UnsupportedOperationException("this store cannot list its files");
    }

    /** The folder (or prefix) that holds this one, to look for a place with a close name; null at the top. */
    default BackupStore parent() {
        return null;
    }

    /** This store's own name in its {@link #parent()}, without a trailing {@code /}; null at the top. */
    default String leaf() {
        return null;
    }
}
