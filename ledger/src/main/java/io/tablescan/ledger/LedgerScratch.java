package io.tablescan.ledger;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ledger's temporary state folders, named with the process that made them. A ledger deletes its own when its
 * process exits (also on Ctrl-C); a process killed outright (SIGKILL) leaves it behind: the next ledger started
 * on this machine deletes those whose process is gone.
 */
final class LedgerScratch {
    static final String PREFIX = "tablescan-ledger-";
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-\\d+");

    private LedgerScratch() {}

    /** A new folder in the temporary folder, after deleting the leftovers of processes that no longer run. */
    static Path create() throws IOException {
        Path dir = Files.createTempDirectory(PREFIX + ProcessHandle.current().pid() + "-");
        reapLeftovers(dir.getParent());
        return dir;
    }

    /** Deletes the folders under {@code parent} that a ledger made in a process which no longer runs. */
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
