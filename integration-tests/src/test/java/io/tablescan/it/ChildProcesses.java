package io.tablescan.it;

import io.tablescan.cli.TablescanCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs ./tablescan commands as separate JVMs on this test's class path; stops them all on close. */
final class ChildProcesses implements AutoCloseable {
    /**
     * coreutils' env (8.31 or later) resets SIGINT, then execs the command: same process, same pid. An env without
     * that option (macOS, BusyBox) is found once, and the command then runs as it is.
     */
    private static final List<String> DEFAULT_SIGINT = defaultSigint();
    private final List<Process> processes = new ArrayList<>();
    private final java.util.Set<String> labels = new java.util.HashSet<>();
    private final Path logs;

    ChildProcesses(String name) {
        try {
            logs = Files.createDirectories(Path.of("target", "child-logs", name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Process start(String label, Map<String, String> env, String... args) {
        List<String> command = java();
        command.addAll(List.of(args));
        // Several workers on one host: each takes any free loopback port for its metrics unless told otherwise.
        Map<String, String> withDefaults =
                new java.util.HashMap<>(Map.of("TABLESCAN_METRICS_PORT", "0", "TABLESCAN_METRICS_HOST", "127.0.0.1"));
        withDefaults.putAll(env);
        return start(label, withDefaults, command);
    }

    /**
     * A JVM running the tablescan command on this test's class path. C1 only and the serial collector, as the
     * launcher starts its short commands: a test's processes are small and many on two cores, and C2's compiles and
     * G1's threads cost them more CPU than they save.
     */
    static List<String> java() {
        List<String> command = jvm();
        command.addAll(ChildClassCache.flags());
        command.addAll(List.of("-cp", ChildClassCache.classPath(), TablescanCommand.class.getName()));
        return command;
    }

    /** The java command and the flags every child has, the training run of the class cache too. */
    static List<String> jvm() {
        return new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    }

    /**
     * Starts an arbitrary command (the image's entrypoint), logged and stopped like the others. It starts with
     * SIGINT at its default: run from a script's background job (CI runners, nohup), this JVM inherited SIGINT as
     * ignored, and so would every child, which would then never see the Ctrl-C a test sends it.
     */
    synchronized Process start(String label, Map<String, String> env, List<String> command) {
        if (labels.add(label)) { // a log left by an earlier run of the test is not this run's
            try {
                Files.deleteIfExists(logs.resolve(label + ".log"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ProcessBuilder builder = new ProcessBuilder(concat(DEFAULT_SIGINT, command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(label + ".log").toFile()));
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            processes.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> defaultSigint() {
        List<String> prefix = List.of("env", "--default-signal=INT");
        try {
            Process probe = new ProcessBuilder(concat(prefix, List.of("true"))).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0) {
                return prefix;
            }
            probe.destroyForcibly();
        } catch (IOException e) {
            // no env at all: run the command as it is
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    File log(String label) {
        return logs.resolve(label + ".log").toFile();
    }

    /** Everything a child has written so far. */
    String output(String label) {
        try {
            return Files.readString(logs.resolve(label + ".log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGTERM to every child (graceful stop) but the first started, then to that one: a cluster's broker, which the
     * others need while they leave their groups and close their transactions. SIGKILL to any still running after 30 s.
     */
    @Override
    public void close() {
        List<Process> started;
        synchronized (this) { // a cluster's tests may start commands from two threads
            started = List.copyOf(processes);
        }
        if (!started.isEmpty()) {
            stop(started.subList(1, started.size()));
            stop(started.subList(0, 1));
        }
    }

    private static void stop(List<Process> processes) {
        processes.forEach(Process::destroy);
        for (Process p : processes) {
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
