package io.tablescan.runner;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/** The local jobs' state folders under a root ({@link StateRoots}): listed and removed by `tablescan jobs`. */
public final class JobStates {
    private JobStates() {}

    /** One job's state as listed; {@code rows} as last recorded, {@code running} while a run holds its lock. */
    /** {@code seeded}: its scan was seeded, so a rerun resumes it; else a rerun starts it over (nothing of it ran). */
    public record Entry(String key, String job, String tables, Instant started, long rows, long bytes, boolean running,
            boolean seeded) {}

    public static List<Entry> list(Path root) {
        List<Entry> entries = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return entries;
        }
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                Properties p = JobState.read(dir);
                if (p.getProperty("key") == null) {
                    continue; // not a job's state
                }
                entries.add(new Entry(p.getProperty("key"), p.getProperty("job", "?"), p.getProperty("tables", "?"),
                        p.getProperty("started") == null ? null : Instant.parse(p.getProperty("started")),
                        Long.parseLong(p.getProperty("rows", "0")), size(dir), locked(dir),
                        "true".equals(p.getProperty("seeded"))));
            }
        } catch (IOException e) {
            throw new RunSettingsException("cannot read the state folder " + root + ": " + e.getMessage());
        }
        entries.sort(Comparator.comparing(Entry::key));
        return entries;
    }

    /**
     * Deletes job {@code key}'s state; false when there is none.
     *
     * @throws RunSettingsException while a run of the job holds it
     */
    public static boolean remove(Path root, String key) {
        Path dir = root.resolve(key);
        if (!key.matches("[0-9a-f]{1,64}") || !Files.isRegularFile(dir.resolve(JobState.FILE))) {
            return false;
        }
        if (locked(dir)) {
            throw new RunSettingsException("job " + key + " is running: stop it before removing its state");
        }
        JobState.delete(dir);
        return true;
    }

    private static boolean locked(Path dir) {
        Path lockPath = dir.resolve("lock");
        if (!Files.exists(lockPath)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(lockPath, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
            return true;
        }
    }

    /**
     * The bytes a job's folder uses. The broker's index files are sparse and preallocated (10 MiB each, a few KiB of
     * it used until a segment closes): each counts at most one 12-byte entry for every 4 KiB of its segment's log.
     */
    static long size(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(JobStates::used).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0; // files went while walked: a running job
        }
    }

    private static long used(Path file) {
        long length = file.toFile().length();
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot < 0 || !(name.endsWith(".index") || name.endsWith(".timeindex"))) {
            return length;
        }
        long log = file.resolveSibling(name.substring(0, dot) + ".log").toFile().length();
        return Math.min(length, (log / 4096 + 1) * 12);
    }
}
