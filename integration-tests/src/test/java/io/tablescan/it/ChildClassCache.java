package io.tablescan.it;

import io.tablescan.cli.SampleTable;
import io.tablescan.cli.TablescanCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A class cache for the tests' child JVMs, as the launcher keeps one for its commands: the classes a local copy loads
 * (the command, the Azure and Kafka clients, the embedded broker, the workers), loaded and linked once by a training
 * copy and mapped by every child after. A child then starts on about a fifth less CPU (a 2,000-row copy: 8.7 to 7.0
 * CPU-seconds), and a run starts a hundred or more of them.
 *
 * <p>The cache takes jars only: the children's class path has this module's test classes as a jar (built in the
 * package phase) where the tests' own has their folder. Both forks use one cache, made by whichever asks first
 * (a file lock), and a later run keeps it while it is newer than every jar. JDK 25 and later make an AOT cache, 21 to
 * 24 a CDS archive; without a cache (a failed training, no test jar) the children run as before.
 */
final class ChildClassCache {
    private static final Path DIR = Path.of("target");
    private static final Path TESTS_JAR = testsJar();
    private static List<String> flags;

    private ChildClassCache() {}

    /** The children's class path: the tests' own, their classes folder replaced by the test jar where there is one. */
    static String classPath() {
        String own = System.getProperty("java.class.path");
        if (TESTS_JAR == null) {
            return own;
        }
        String folder = DIR.resolve("test-classes").toAbsolutePath().toString();
        List<String> entries = new ArrayList<>();
        for (String entry : own.split(File.pathSeparator)) {
            entries.add(Path.of(entry).toAbsolutePath().toString().equals(folder) ? TESTS_JAR.toString() : entry);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** The flags that map the cache into a child, made on first use; none if it cannot be had. */
    static synchronized List<String> flags() {
        if (flags == null) {
            boolean off = "0".equals(System.getenv("TABLESCAN_TEST_CHILD_CACHE")); // for an A/B of its cost
            flags = TESTS_JAR == null || off ? List.of() : made();
        }
        return flags;
    }

    private static List<String> made() {
        boolean aot = Runtime.version().feature() >= 25;
        Path cache = DIR.resolve(aot ? "child-classes.aot" : "child-classes.jsa").toAbsolutePath();
        List<String> use = aot ? List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off", "-Xlog:cds*=off")
                : List.of("-XX:SharedArchiveFile=" + cache, "-Xlog:cds*=off");
        try (FileChannel channel = FileChannel.open(DIR.resolve("child-classes.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = channel.lock()) { // the other fork waits for this one's
            if (!fresh(cache)) {
                Files.deleteIfExists(cache);
                train(aot ? "-XX:AOTCacheOutput=" + cache : "-XX:ArchiveClassesAtExit=" + cache);
            }
            if (fresh(cache)) {
                return use;
            }
            System.err.println("child JVMs run without a class cache: the training copy made none");
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** A copy of a small table in a child JVM that writes the cache as it exits. */
    private static void train(String output) throws IOException, InterruptedException {
        SampleTable.write(LocalServices.store(), "childcachesource", SampleTable.rows(200), 4);
        List<String> command = new ArrayList<>(ChildProcesses.jvm());
        command.addAll(List.of(output, "-Xlog:aot*=off", "-Xlog:cds*=off", "-cp", classPath(),
                TablescanCommand.class.getName(), "copy", "--source-account", "emulator", "--source-table",
                "childcachesource", "--dest-table", "childcachecopy", "--page-size", "20"));
        if (Runtime.version().feature() < 25) {
            command.remove("-Xlog:aot*=off");
        }
        Path log = Files.createDirectories(DIR.resolve("child-logs")).resolve("child-class-cache.log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING",
                LocalServices.azurite().connectionString());
        Process training = builder.start();
        if (!training.waitFor(3, TimeUnit.MINUTES)) {
            training.destroyForcibly().waitFor();
        }
    }

    /** There, and newer than every jar of the class path: the JVM refuses a cache older than a jar it holds. */
    private static boolean fresh(Path cache) throws IOException {
        if (!Files.isRegularFile(cache)) {
            return false;
        }
        long made = Files.getLastModifiedTime(cache).toMillis();
        for (String entry : classPath().split(File.pathSeparator)) {
            Path jar = Path.of(entry);
            if (Files.isRegularFile(jar) && Files.getLastModifiedTime(jar).toMillis() > made) {
                return false;
            }
        }
        return true;
    }

    /** The package phase's jar of the test classes; none if a class was compiled after it (a run from an IDE). */
    private static Path testsJar() {
        try (var jars = Files.list(DIR); var classes = Files.walk(DIR.resolve("test-classes"))) {
            Path jar = jars.filter(p -> p.getFileName().toString().endsWith("-tests.jar")).map(Path::toAbsolutePath)
                    .findFirst().orElse(null);
            if (jar == null) {
                return null;
            }
            long built = Files.getLastModifiedTime(jar).toMillis();
            return classes.anyMatch(c -> c.toFile().lastModified() > built) ? null : jar;
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }
}
