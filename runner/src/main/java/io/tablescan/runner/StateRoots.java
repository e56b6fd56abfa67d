package io.tablescan.runner;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;

/**
 * Which folder holds the local jobs' states, and why one cannot be used. A folder the user named with
 * {@code --state-dir} is used or refused, never replaced. The default (or $TABLESCAN_STATE_DIR) that cannot be
 * written (no home, as for a container's system user; a read-only home; a volume not mounted) gives way to a folder
 * of this user's in the temp directory, with one warning line: a job then still runs, and a rerun resumes it as long
 * as that folder is kept.
 */
public final class StateRoots {
    /** The folder chosen, and the warning to print when it is the fallback (else null). */
    public record Choice(Path dir, String warning) {}

    private StateRoots() {}

    /** The folder of all jobs' states for {@code option} and the environment, checked when it is not the user's own. */
    public static Choice choose(Path option, Map<String, String> env) {
        return choose(option, env, System.getProperty("user.home", ""), System.getProperty("user.name", ""),
                Path.of(System.getProperty("java.io.tmpdir")));
    }

    static Choice choose(Path option, Map<String, String> env, String home, String user, Path tmp) {
        if (option != null) {
            return new Choice(option, null); // refused with its reason when opened, if it cannot be written
        }
        String set = env.get(JobState.ENV);
        boolean homeless = home.isBlank() || home.equals("?"); // "?": Java's word for a user the system does not name
        Path wanted = set != null && !set.isBlank() ? Path.of(set)
                : homeless ? null : Path.of(home, ".tablescan", "jobs");
        String why = wanted == null ? "this user has no home folder" : unusable(wanted, tmp);
        if (why == null) {
            return new Choice(wanted, null);
        }
        Path fallback = fallback(user, tmp);
        String fallbackWhy = unusable(fallback, tmp);
        if (fallbackWhy != null && Files.isDirectory(fallback)) { // taken: a folder of this run's own, never shared
            try {
                fallback = Files.createTempDirectory(tmp, "tablescan-jobs-"); // rwx------ where POSIX
                fallbackWhy = null;
            } catch (IOException e) {
                // opening the wanted folder says why and the way out
            }
        }
        if (fallbackWhy != null) {
            return new Choice(wanted == null ? fallback : wanted, null); // opening it says why and the way out
        }
        return new Choice(fallback, "warning: cannot use the state folder " + (wanted == null ? "~/.tablescan/jobs"
                : wanted) + " (" + why + "); this job's state is kept in " + fallback + " instead, so a rerun "
                + "resumes it only while that folder is kept: give --state-dir DIR or set " + JobState.ENV
                + " to a folder you can write");
    }

    /**
     * The folder a listing of jobs reads ({@code tablescan jobs}), creating nothing: the default (or
     * $TABLESCAN_STATE_DIR) when it is there and can be written, as jobs choose it; else this user's folder in the
     * temp directory, where jobs fell back to, when that is there and private; else the default (which then holds
     * no job, or jobs of runs before it became read-only). A job's folder in the temp directory of a run whose own
     * fallback was taken is not found: that run's warning named it.
     */
    public static Path forReading(Path option, Map<String, String> env) {
        return forReading(option, env, System.getProperty("user.home", ""), System.getProperty("user.name", ""),
                Path.of(System.getProperty("java.io.tmpdir")), Files::isWritable);
    }

    static Path forReading(Path option, Map<String, String> env, String home, String user, Path tmp,
            java.util.function.Predicate<Path> writable) {
        if (option != null) {
            return option;
        }
        String set = env.get(JobState.ENV);
        boolean homeless = home.isBlank() || home.equals("?");
        Path wanted = set != null && !set.isBlank() ? Path.of(set)
                : homeless ? null : Path.of(home, ".tablescan", "jobs");
        if (wanted != null && Files.isDirectory(wanted) && writable.test(wanted)) {
            return wanted;
        }
        String name = user.replaceAll("[^A-Za-z0-9._-]", "");
        Path fallback = tmp.resolve("tablescan-" + (name.isEmpty() ? "user" : name)).resolve("jobs");
        try {
            UserPrincipal me = fallback.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name", ""));
            if (Files.isDirectory(fallback) && privateTo(me, fallback, tmp)) {
                return fallback;
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not usable: the default is named
        }
        return wanted == null ? fallback : wanted;
    }

    /** What to tell the user when {@code dir} cannot hold a job's state: the reason and the way out. */
    static String cannotUse(Path dir, IOException e) {
        return "cannot use the state folder " + dir + " (" + reason(e) + "): give --state-dir DIR or set "
                + JobState.ENV + " to a folder you can write";
    }

    /** The reason {@code e} gives in words: permission denied, missing, not a folder, a read-only disk... */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied on " + denied.getFile();
        }
        if (e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException) {
            return ((FileSystemException) e).getFile() + " is a file, not a folder";
        }
        if (e instanceof NoSuchFileException missing) {
            return missing.getFile() + " is missing";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            String why = fs.getReason().toLowerCase(java.util.Locale.ROOT);
            if (why.equals("not a directory") && fs.getFile() != null) { // name the file on the way
                for (Path p = Path.of(fs.getFile()); p != null; p = p.getParent()) {
                    if (Files.isRegularFile(p)) {
                        return p + " is a file, not a folder";
                    }
                }
            }
            return fs.getFile() + ": " + why;
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Null when a job's state can be written in {@code dir} (created if missing), else why not. */
    static String unusable(Path dir, Path tmp) {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".probe-", ".tmp");
            try {
                if (dir.startsWith(tmp) && !privateTo(Files.getOwner(probe), dir, tmp)) {
                    return "another user's folder, or one others may write"; // a shared temp directory
                }
            } finally {
                Files.deleteIfExists(probe);
            }
            return null;
        } catch (IOException | UnsupportedOperationException e) {
            return e instanceof IOException io ? reason(io) : e.getMessage();
        }
    }

    /**
     * True when {@code dir} and every folder above it up to the temp directory belong to {@code me} and no one else may
     * write them: another local user who made this user's folder first must not read or swap a job's state.
     */
    private static boolean privateTo(UserPrincipal me, Path dir, Path tmp) throws IOException {
        for (Path p = dir; p != null && !p.equals(tmp) && p.startsWith(tmp); p = p.getParent()) {
            if (!Files.getOwner(p).equals(me)) {
                return false;
            }
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
                if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                    return false;
                }
            } catch (UnsupportedOperationException e) {
                return true; // no POSIX permissions here (Windows): the owner is what can be checked
            }
        }
        return true;
    }

    /** This user's folder in the temp directory, private to them where the file system can say so. */
    static Path fallback(String user, Path tmp) {
        String name = user.replaceAll("[^A-Za-z0-9._-]", "");
        Path dir = tmp.resolve("tablescan-" + (name.isEmpty() ? "user" : name)).resolve("jobs");
        try {
            Files.createDirectories(dir.getParent(), PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        } catch (IOException | UnsupportedOperationException e) {
            // unusable() says why
        }
        return dir;
    }
}
