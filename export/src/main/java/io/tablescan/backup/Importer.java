package io.tablescan.backup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The checks of an import, before anything is written: the manifest, then every file against it, in parallel
 * (nothing is written if one file is bad). {@link ImportSeeder} then hands the rows to the workers.
 */
public final class Importer {

    private final BackupStore store;
    private final int parallelism;
    private final AtomicLong rowsChecked = new AtomicLong();

    /** {@code parallelism}: files checked at once. */
    public Importer(BackupStore store, int parallelism) {
        this.store = store;
        this.parallelism = parallelism;
    }

    /** The manifest, read and checked; a missing one means no finished export. */
    public Manifest manifest() {
        return manifest(null);
    }

    /**
     * As above; with {@code format} (the files' format, as the user gave it), a store without a manifest is read as
     * data files another tool wrote in that format ({@link Manifest#ofFiles}), and one with a manifest must be in it.
     */
    public Manifest manifest(FileFormat format) {
        byte[] json;
        try {
            json = store.read(Manifest.NAME);
        } catch (BackupException e) {
            if (e.kind() == BackupException.Kind.NOT_FOUND) {
                if (format != null) {
                    return Manifest.ofFiles(store, format);
                }
                throw new BackupException(BackupException.Kind.NOT_FOUND, "no " + Manifest.NAME + " in "
                        + store.describe() + ": not a finished export (files another tool wrote: give --format)");
            }
            throw e;
        }
        Manifest manifest = Manifest.parse(json);
        if (format != null && manifest.fileFormat() != format) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, store.describe() + " holds an export in "
                    + manifest.fileFormat().label() + ", not " + format.label());
        }
        return manifest;
    }

    /**
     * Checks every file (size, SHA-256, every line, row count) without writing anything; returns the batches
     * its rows make, as {@link ImportSeeder} cuts them.
     */
    public long checkAll(Manifest manifest) {
        return checkAll(manifest, row -> {});
    }

    /**
     * As {@link #checkAll(Manifest)}, handing every row of the checked files to {@code each} (called from several
     * threads at once; a file's rows come before its check ends, so a failed check must void what it kept).
     */
    public long checkAll(Manifest manifest, java.util.function.Consumer<io.tablescan.spi.Row> each) {
        AtomicLong count = new AtomicLong();
        forEachFile(manifest, file -> {
            FileBatches batcher = new FileBatches(batch -> count.incrementAndGet());
            DataFileReader.check(file, DataFileReader.read(store, file), row -> {
                rowsChecked.incrementAndGet();
                each.accept(row);
                batcher.add(row);
            });
            batcher.finish();
        });
        return count.get();
    }

    public long rowsChecked() {
        return rowsChecked.get();
    }

    private void forEachFile(Manifest manifest, java.util.function.Consumer<Manifest.DataFile> work) {
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallelism))) {
            List<Future<?>> done = new ArrayList<>();
            for (Manifest.DataFile file : manifest.files()) {
                done.add(pool.submit(() -> work.accept(file)));
            }
            for (Future<?> future : done) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    pool.shutdownNow(); // the first failure ends the import; the others need not finish
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    pool.shutdownNow();
                    Thread.currentThread().interrupt();
                    throw new BackupException(BackupException.Kind.FAILED, "interrupted");
                }
            }
        }
    }
}
