package io.tablescan.runner;

import io.tablescan.schema.ScanSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A local job's state folder, kept until the job finishes so that the same command run again resumes it: the
 * embedded broker's data ({@code kafka/}), the scan's spec and the job's description ({@value #FILE}), and a lock
 * held while a run uses it, so that a second run of the same job is refused. Nothing in it names a secret.
 */
public final class JobState implements AutoCloseable {
    public static final String ENV = "TABLESCAN_STATE_DIR";
    static final String FILE = "job.properties";
    /** Set once a job of several scans (a backup set's tables) seeded its first: its stages' records follow. */
    private static final String STAGES = "stages";
    private static final String LOCK = "lock";

    private final Path dir;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final Properties props;
    /** Why this run starts over although an earlier run left this job's state, or null. */
    private String startedOver;

    private JobState(Path dir, FileChannel lockFile, FileLock lock, Properties props) {
        this.dir = dir;
        this.lockFile = lockFile;
        this.lock = lock;
        this.props = props;
    }

    /** A job's key: a hash of what defines it (so that no secret shows). */
    public static String key(String definition) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(definition.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens job {@code key}'s state under {@code root}, locked for this run; {@code restart} discards what an
     * earlier run left. A state whose scan was never seeded is discarded too (nothing of it ran). {@code job} and
     * {@code tables} describe the job in {@code tablescan jobs}.
     *
     * @throws RunSettingsException when another run holds the job, or the folder cannot be written
     */
    public static JobState open(Path root, String key, String job, String tables, boolean restart) {
        Path dir = root.resolve(key);
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new RunSettingsException("this job is running already (state " + dir + "); wait for it to end, "
                        + "or stop it first");
            }
            Properties left = read(dir);
            Properties props = left;
            String startedOver = null;
            if (restart || !"true".equals(left.getProperty("seeded"))) {
                if (!restart && left.getProperty("scan") != null) { // killed between starting and seeding its scan
                    startedOver = "an earlier run of this job (scan " + left.getProperty("scan") + ", started "
                            + left.getProperty("started", "at an unknown time") + ") stopped before its scan was "
                            + "seeded: nothing of it was done; this run starts the job over";
                }
                clear(dir);
                Properties kept = new Properties(); // the command's own values (an export's claim) stay its own
                left.stringPropertyNames().stream().filter(name -> name.startsWith("x."))
                        .forEach(name -> kept.setProperty(name, left.getProperty(name)));
                props = kept;
            }
            props.setProperty("key", key);
            props.setProperty("job", job);
            props.setProperty("tables", tables);
            props.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
            JobState state = new JobState(dir, channel, lock, props);
            state.startedOver = startedOver;
            state.save();
            return state;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new RunSettingsException(StateRoots.cannotUse(root, e));
        } catch (java.nio.channels.OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new RunSettingsException("this job is running already in this process (state " + dir + ")");
        }
    }

    public Path dir() {
        return dir;
    }

    public Path kafkaDir() {
        return dir.resolve("kafka");
    }

    /**
     * Whether an earlier run seeded this job's scan (or, for a job of several scans, one of them): this run follows it
     * instead of seeding again.
     */
    public boolean resumable() {
        return "true".equals(props.getProperty("seeded"))
                && (props.getProperty("spec") != null || props.getProperty(STAGES) != null);
    }

    /**
     * The line that says an earlier run of this job stopped before its scan was seeded (nothing of it ran), so that
     * this run, which starts over, does not do so without a word; empty otherwise.
     */
    public java.util.Optional<String> startedOver() {
        return java.util.Optional.ofNullable(startedOver);
    }

    /** The scan an earlier run seeded. */
    public ScanSpec spec() {
        return decode(props.getProperty("spec"));
    }

    private static ScanSpec decode(String spec) {
        try {
            return ScanSpec.fromByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(spec)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String encode(ScanSpec spec) {
        try {
            ByteBuffer bytes = spec.toByteBuffer();
            byte[] raw = new byte[bytes.remaining()];
            bytes.get(raw);
            return Base64.getEncoder().encodeToString(raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** When the job first started. */
    public Instant started() {
        return Instant.parse(props.getProperty("started", Instant.EPOCH.toString()));
    }

    /** Records the scan about to be seeded. */
    void starting(ScanSpec spec) {
        props.setProperty("spec", encode(spec));
        props.setProperty("scan", spec.getScanId());
        props.setProperty("started", Instant.now().toString());
        save();
    }

    /** The scan is seeded: from now on a rerun resumes it. */
    void seeded() {
        props.setProperty("seeded", "true");
        save();
    }

    /**
     * Records the scan of stage {@code stage} (a table of a backup set, say) of a job of several scans, about to be
     * seeded; with no scan seeded yet, the job still starts over when run again.
     */
    void stageStarting(String stage, ScanSpec spec) {
        props.setProperty("stage." + stage + ".spec", encode(spec));
        if (props.getProperty("started") == null) {
            props.setProperty("started", Instant.now().toString());
        }
        save();
    }

    /** Stage {@code stage}'s scan is seeded: from now on a rerun follows it, and the job is resumed. */
    void stageSeeded(String stage) {
        props.setProperty("stage." + stage + ".seeded", "true");
        props.setProperty(STAGES, "true");
        props.setProperty("seeded", "true");
        save();
    }

    /** A stage of a job of several scans as recorded: its name, its scan, whether that was seeded. */
    record Stage(String name, ScanSpec spec, boolean seeded) {}

    /** Every stage recorded, seeded or not. */
    java.util.List<Stage> stages() {
        return props.stringPropertyNames().stream().filter(n -> n.startsWith("stage.") && n.endsWith(".spec")).sorted()
                .map(n -> n.substring("stage.".length(), n.length() - ".spec".length()))
                .map(name -> new Stage(name, decode(props.getProperty("stage." + name + ".spec")),
                        "true".equals(props.getProperty("stage." + name + ".seeded"))))
                .toList();
    }

    /** The scan stage {@code stage} of an earlier run seeded, if it did. */
    java.util.Optional<ScanSpec> stageSpec(String stage) {
        String spec = props.getProperty("stage." + stage + ".spec");
        return "true".equals(props.getProperty("stage." + stage + ".seeded")) ? java.util.Optional.of(decode(spec))
                : java.util.Optional.empty();
    }

    /**
     * A value of the job's own for its reruns (a backup set's id, a finished table's result), dropped with the rest
     * of the state when the job starts over.
     */
    public void record(String name, String value) {
        props.setProperty("r." + name, value);
        save();
    }

    /** A value {@link #record}ed by this run or an earlier one, or null. */
    public String recorded(String name) {
        return props.getProperty("r." + name);
    }

    /** The rows done so far, as {@code tablescan jobs} shows them. */
    public void progress(long rows) {
        if (!Long.toString(rows).equals(props.getProperty("rows"))) {
            props.setProperty("rows", Long.toString(rows));
            save();
        }
    }

    /** The rows done as last recorded. */
    public long rows() {
        return Long.parseLong(props.getProperty("rows", "0"));
    }

    public String get(String name) {
        return props.getProperty("x." + name);
    }

    /** Keeps a value of the command's own (an export's run id) for a rerun, --restart included. */
    public void put(String name, String value) {
        props.setProperty("x." + name, value);
        save();
    }

    /** The job finished (or cannot be resumed): its state goes. */
    public void finish() {
        release();
        delete(dir);
    }

    /** Ends this run's hold on the state; a state with no seeded scan (nothing to resume) goes. */
    @Override
    public void close() {
        if (!resumable()) {
            release();
            delete(dir);
            return;
        }
        release();
    }

    private void release() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
            lockFile.close();
        } catch (IOException e) {
            // the lock goes with the process anyway
        }
    }

    private synchronized void save() {
        Path tmp = dir.resolve(FILE + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                props.store(out, "tablescan local job state");
            }
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job's state in " + dir, e);
        }
    }

    static Properties read(Path dir) {
        Properties props = new Properties();
        Path file = dir.resolve(FILE);
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                props.load(in);
            } catch (IOException | IllegalArgumentException e) {
                // an unreadable state cannot be resumed: it starts over
            }
        }
        return props;
    }

    /** Everything in {@code dir} but the lock. */
    private static void clear(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(p -> !p.getFileName().toString().equals(LOCK)).forEach(JobState::delete);
        }
    }

    static void delete(Path path) {
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // gone already, or left for `tablescan jobs remove`
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // nothing to do
        }
    }
}
