package io.tablescan.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Embedded brokers' temporary data directories, named with the process that made them. A broker deletes its
 * directory when it stops, even on Ctrl-C; a process killed outright (SIGKILL, a test fork past its exit
 * timeout) leaves it behind, in memory when it is under /dev/shm: the next broker deletes those whose process
 * is gone.
 */
final class ScratchDirectories {
    private static final String PREFIX = "tablescan-kafka-";
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-\\d+");

    private ScratchDirectories() {}

    /**
     * A new directory, in memory (/dev/shm) where there is one with 8 GiB free: the data is deleted on close
     * anyway, and on disk a large copy's writeback can stall the controller's fsyncs long enough to fence the
     * broker.
     */
    static Path create() throws IOException {
        String prefix = PREFIX + ProcessHandle.current().pid() + "-";
        Path shm = Path.of("/dev/shm");
        boolean inMemory = Files.isDirectory(shm) && Files.isWritable(shm);
        if (inMemory) {
            reapLeftovers(shm); // before the free space is measured: leftovers take it
        }
        if (inMemory && shm.toFile().getUsableSpace() > (8L << 30)) {
            try {
                return Files.createTempDirectory(shm, prefix);
            } catch (IOException e) {
                // fall back to the default temporary folder
            }
        }
        Path dir = Files.createTempDirectory(prefix);
        reapLeftovers(dir.getParent());
        return dir;
    }

    /** Deletes the directories under {@code parent} that a process made which no longer runs. */
    static void reapLeftovers(Path parent) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path dir : dirs) {
                Matcher owned = OWNED.matcher(dir.getFileName().toString());
                if (owned.matches() && !running(Long.parseLong(owned.group(1)))) {
                    delete(dir);
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: a leftover stays until a later start
        }
    }

    private static boolean running(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary folder is harmless
        }
    }
}
