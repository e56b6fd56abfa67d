package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C (SIGINT) sent to `copy` and `demo` in a child JVM mid-copy: exit 130 and one line. A local copy keeps
 * its job's state and the same command resumes it; on a cluster (and the demo) the command says what the
 * destination holds, deletes the folders it made (the ledger's state, the broker's data) and cancels the scan so
 * that the cluster's workers skip the rest.
 */
class InterruptIT {
    /** Rows read and written so far: a copy that has started and is not done. */
    static final Pattern COPYING = Pattern.compile("(?m)^  .*items done .*, [1-9][\\d,]* rows, ");

    @BeforeAll
    static void source() {
        SampleTable.write(LocalServices.store(), "intsource", SampleTable.rows(3_000), 8);
    }

    /** The child's own temporary folder, under target/ so that no run leaves folders in /tmp. */
    static Path temporaryFolder(String prefix) throws IOException {
        return Files.createTempDirectory(Files.createDirectories(Path.of("target").toAbsolutePath()), prefix);
    }

    /** Half the table requests answered 500 ms late: the copy lasts long enough to be interrupted in the middle. */
    static Map<String, String> env(Path tmp) {
        return Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp, "TABLESCAN_FAULT_RATE", "0.5",
                "TABLESCAN_FAULT_KINDS", "slow");
    }

    @Test
    void aLocalCopyStopsCleanlyKeepsItsStateAndRunningItAgainResumesIt() throws Exception {
        Path tmp = temporaryFolder("interrupt-copy");
        Path state = temporaryFolder("interrupt-copy-state");
        String[] copyArgs = {"copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "intsource", "--dest-table", "intcopy", "--page-size", "20", "--state-dir",
                state.toString()};
        try (ChildProcesses children = new ChildProcesses("interrupt-copy")) {
            Files.deleteIfExists(children.log("copy").toPath()); // logs are appended to: drop an earlier run's
            Process copy = children.start("copy", env(tmp), copyArgs);
            interruptWhileCopying(children, "copy", copy, tmp);

            String out = children.output("copy");
            assertThat(out).contains("interrupted: stopping; the job is kept for a rerun to resume")
                    .containsPattern("tablescan: interrupted: [1-9][\\d,]* rows? done when stopped \\(at least: work in "
                            + "hand then is redone or counted by the rerun\\); run the same command again to resume it where it stopped")
                    .doesNotContain("cancelling").doesNotContain("\tat ").doesNotContain("completed");
            // the rows it says done are the rows the destination holds, as the JavaScript SDK reads them
            Matcher done = Pattern.compile("interrupted: ([\\d,]+) rows? done when stopped").matcher(out);
            assertThat(done.find()).isTrue();
            assertThat(FidelityIT.client("dump", "intcopy").lines().count()).as("rows in the destination")
                    .isEqualTo(Long.parseLong(done.group(1).replace(",", "")));
            // the ledger's temporary folder is gone; the job's state (its broker's data) is kept
            assertGone(tmp, Set.of());
            try (Stream<Path> jobs = Files.list(state)) {
                assertThat(jobs.toList()).singleElement().satisfies(job -> assertThat(job.resolve("kafka")).isDirectory());
            }
        }
        Cli.Run again = Cli.run(copyArgs);
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(again.out()).contains("resuming scan ");
        assertThat(TableComparer.compare(LocalServices.store(), "intsource", LocalServices.store(), "intcopy").equal())
                .isTrue();
        try (Stream<Path> jobs = Files.list(state)) {
            assertThat(jobs.toList()).as("the finished job's state is gone").isEmpty();
        }
    }

    /**
     * A local delete stopped mid-run: its last line, `jobs` and the rerun's first line count exactly the rows it
     * deleted, as the JavaScript SDK finds them gone (its workers' last deletes are counted before it says so), and
     * the rerun deletes the rest.
     */
    @Test
    void aLocalDeleteStoppedMidRunSaysTheRowsItDeleted() throws Exception {
        int rows = 3_000;
        SampleTable.write(LocalServices.store(), "intdelete", SampleTable.rows(rows), 8);
        Path tmp = temporaryFolder("interrupt-delete");
        Path state = temporaryFolder("interrupt-delete-state");
        String[] deleteArgs = {"delete", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "intdelete", "--all", "--yes", "--page-size", "100", "--state-dir", state.toString(),
                "--max-write-rate", "300"}; // about 10 s: stopped mid-run, deletes in flight
        long deleted;
        try (ChildProcesses children = new ChildProcesses("interrupt-delete")) {
            Files.deleteIfExists(children.log("delete").toPath()); // logs are appended to: drop an earlier run's
            Process delete = children.start("delete", env(tmp), deleteArgs);
            interruptWhileCopying(children, "delete", delete, tmp);

            String out = children.output("delete");
            Matcher last = Pattern.compile("tablescan: interrupted: deleted ([\\d,]+) rows?; 0 skipped \\(changed "
                    + "since read\\) when stopped \\(at least[^)]*\\); run the same command again to resume it").matcher(out);
            assertThat(last.find()).as(out).isTrue();
            deleted = Long.parseLong(last.group(1).replace(",", ""));
        }
        long left = FidelityIT.client("dump", "intdelete").lines().count();
        assertThat(deleted).as("rows the last line says deleted, against the rows gone").isPositive()
                .isEqualTo(rows - left);

        Cli.Run jobs = Cli.run("jobs", "--state-dir", state.toString());
        Matcher listed = Pattern.compile("(?m)^\\S+\\s+delete\\s+intdelete\\s+\\S+ \\S+\\s+([\\d,]+)\\s")
                .matcher(jobs.out());
        assertThat(listed.find()).as(jobs.out()).isTrue();
        assertThat(listed.group(1)).as("rows done in `jobs`").isEqualTo(String.format("%,d", deleted));

        Cli.Run again = Cli.run(deleteArgs);
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(again.out()).contains(String.format(": %,d rows already done", deleted))
                .contains(String.format("deleted %,d rows", rows));
        assertThat(FidelityIT.client("dump", "intdelete")).as("rows left").isEmpty();
    }

    /** A second Ctrl-C exits at once, and still leaves no ledger state in the temporary folder. */
    @Test
    void aSecondCtrlCLeavesNoLedgerFolder() throws Exception {
        Path tmp = temporaryFolder("interrupt-twice");
        try (ChildProcesses children = new ChildProcesses("interrupt-twice")) {
            Files.deleteIfExists(children.log("copy").toPath()); // logs are appended to: drop an earlier run's
            Process copy = children.start("copy", env(tmp), "copy", "--source-connection-string",
                    LocalServices.azurite().connectionString(), "--source-table", "intsource", "--dest-table",
                    "inttwice", "--page-size", "20");
            awaitCopying(children, "copy", copy);
            try (Stream<Path> made = Files.list(tmp)) {
                assertThat(made.map(p -> p.getFileName().toString())).as("the ledger's state is in the temporary folder")
                        .anyMatch(n -> n.startsWith("tablescan-ledger"));
            }
            new ProcessBuilder("kill", "-INT", Long.toString(copy.pid())).inheritIO().start().waitFor();
            new ProcessBuilder("kill", "-INT", Long.toString(copy.pid())).inheritIO().start().waitFor();
            assertThat(copy.waitFor(90, TimeUnit.SECONDS)).as(children.output("copy")).isTrue();
            assertThat(copy.exitValue()).as(children.output("copy")).isEqualTo(UserError.INTERRUPTED);
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left.map(p -> p.getFileName().toString())).as("left in the temporary folder")
                        .noneMatch(n -> n.startsWith("tablescan-ledger"));
            }
        }
    }

    @Test
    void aCopyOnAClusterIsCancelledSoTheClustersWorkersSkipTheRest() throws Exception {
        Path tmp = temporaryFolder("interrupt-kafka");
        String bootstrap = LocalServices.broker().bootstrapServers();
        String scanId;
        try (ChildProcesses children = new ChildProcesses("interrupt-kafka")) {
            Files.deleteIfExists(children.log("copy").toPath()); // logs are appended to: drop an earlier run's
            Process copy = children.start("copy", env(tmp), "copy", "--source-connection-string",
                    LocalServices.azurite().connectionString(), "--source-table", "intsource", "--dest-table",
                    "intkafkacopy", "--page-size", "20", "--kafka", bootstrap, "--max-write-rate", "200"); // work in hand
            // waits for the write cap when Ctrl-C comes
            Set<Path> folders = interruptWhileCopying(children, "copy", copy, tmp);

            String out = children.output("copy");
            assertThat(out).contains("tablescan: interrupted: table intkafkacopy holds part of the copy (");
            // The rows it says were written are what another client reads in the destination; or, when work in hand
            // was stopped after it had written, at most that many (it says "at least" then).
            java.util.regex.Matcher said = java.util.regex.Pattern
                    .compile("holds part of the copy \\((at least )?([\\d,]+) rows? written when stopped").matcher(out);
            assertThat(said.find()).as(out).isTrue();
            long written = Long.parseLong(said.group(2).replace(",", ""));
            long held = FidelityIT.client("dump", "intkafkacopy").lines().filter(l -> !l.isBlank()).count();
            if (said.group(1) == null) {
                assertThat(held).as("rows the JavaScript SDK reads in the destination: " + out).isEqualTo(written);
            } else {
                assertThat(held).as("rows the JavaScript SDK reads in the destination: " + out)
                        .isGreaterThanOrEqualTo(written);
            }
            assertGone(tmp, folders);
            scanId = out.replaceAll("(?s).*?scan (scan-\\S+):.*", "$1");
        }
        // It ran in a namespace of its own, removed on the way out: nothing of it is left for the cluster's workers.
        try (Admin admin = Admin.create(KafkaSettings.of(bootstrap).admin())) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .noneMatch(topic -> topic.startsWith("tablescan-copy-"));
        }
        assertThat(scanId).startsWith("scan-");
    }

    @Test
    void theDemoStopsCleanlyMidCopy() throws Exception {
        Path tmp = temporaryFolder("interrupt-demo");
        try (ChildProcesses children = new ChildProcesses("interrupt-demo")) {
            Files.deleteIfExists(children.log("demo").toPath()); // logs are appended to: drop an earlier run's
            Process demo = children.start("demo", env(tmp), "demo", "--rows", "3000", "--page-size", "20");
            awaitCopying(children, "demo", demo);
            List<ProcessHandle> azurite = demo.descendants().toList();
            assertThat(azurite).as("Azurite runs as a child of the demo").isNotEmpty();
            Set<Path> folders = interrupt(children, "demo", demo, tmp);
            assertThat(folders).anyMatch(InterruptIT::brokerData);

            String out = children.output("demo");
            assertThat(out).contains("tablescan: demo interrupted during the copy (").contains("run ./tablescan demo again")
                    .doesNotContain("verifying").doesNotContain("\tat ");
            assertThat(azurite.stream().filter(ProcessHandle::isAlive)).as("Azurite stopped").isEmpty();
            assertGone(tmp, folders);
        }
    }

    static Set<Path> interruptWhileCopying(ChildProcesses children, String label, Process child, Path tmp) throws Exception {
        awaitCopying(children, label, child);
        return interrupt(children, label, child, tmp);
    }

    static void awaitCopying(ChildProcesses children, String label, Process child) {
        assertThat(FreePorts.await(() -> COPYING.matcher(children.output(label)).find(), Duration.ofMinutes(3),
                child::isAlive)).as(children.output(label)).isTrue();
    }

    /**
     * Notes the folders the child has files open in, sends SIGINT, and expects exit 130. Returns those folders
     * (the broker's data, the ledger's state).
     */
    static Set<Path> interrupt(ChildProcesses children, String label, Process child, Path tmp) throws Exception {
        Set<Path> folders = openFolders(child.pid(), tmp);
        new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start().waitFor();
        assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("exits after Ctrl-C: " + children.output(label)).isTrue();
        assertThat(child.exitValue()).as(children.output(label)).isEqualTo(UserError.INTERRUPTED);
        return folders;
    }

    static boolean brokerData(Path folder) {
        return folder.getFileName().toString().startsWith("tablescan-kafka-");
    }

    /** The tablescan-* folders in the child's temporary folder or in /dev/shm (the broker's) it has a file open in. */
    static Set<Path> openFolders(long pid, Path tmp) throws IOException {
        Set<Path> parents = Set.of(tmp.toRealPath(), Path.of("/dev/shm"));
        Set<Path> folders = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    for (Path p = Files.readSymbolicLink(fd); p != null && p.getParent() != null; p = p.getParent()) {
                        if (parents.contains(p.getParent()) && p.getFileName().toString().startsWith("tablescan-")) {
                            folders.add(p);
                        }
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return folders;
    }

    /** Nothing left of the child's temporary folders: its own temporary folder is empty, the broker's gone. */
    static void assertGone(Path tmp, Set<Path> folders) {
        folders.forEach(p -> assertThat(p).as("deleted on exit").doesNotExist());
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("tablescan-")))
                    .as("left in the temporary folder").isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
