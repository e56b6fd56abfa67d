package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.backup.ExportClaim;
import io.tablescan.backup.Manifest;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A local job killed with SIGKILL at about half and run again with the same command resumes its scan on the kept
 * broker data: the result is exact, the source is not read again from the start, and the state folder is gone
 * after. The source's rows read, counted by a proxy in front of Azurite, by the killed run and its rerun together
 * are at most 1.3 times one uninterrupted run's. Also: a second run of a running job is refused, --restart starts
 * over, `jobs` lists and removes.
 */
class LocalResumeIT {
    private static final int ROWS = 2_000;
    private static final Pattern ROWS_DONE = Pattern.compile("(?m)^  .*items done .*?, ([\\d,]+) rows, ");
    private static final Pattern READS = Pattern.compile("requests:\\s+([\\d,]+) reads? of the source");
    private static final String SOURCE = "resumesource";
    /** The runs' way to the source: counts the rows each query returned. */
    private static CountingProxy proxy;

    @BeforeAll
    static void source() throws Exception {
        SampleTable.write(LocalServices.store(), SOURCE, SampleTable.rows(ROWS), 8);
        proxy = CountingProxy.start(LocalServices.azurite());
    }

    @AfterAll
    static void stopProxy() {
        proxy.close();
    }

    /** Every table request answered 500 ms late: a run lasts long enough to be killed in the middle. */
    private static Map<String, String> slow() {
        return Map.of("TABLESCAN_FAULT_RATE", "1", "TABLESCAN_FAULT_KINDS", "slow",
                "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", proxy.connectionString());
    }

    /** The rerun: the same command, at full speed. */
    private static Map<String, String> fast() {
        return Map.of("TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", proxy.connectionString());
    }

    private static List<String> args(Path state, String... more) {
        List<String> args = new ArrayList<>(List.of(more));
        args.addAll(List.of("--source-account", "emulator", "--source-table", "resumesource", "--page-size", "20",
                "--state-dir", state.toString()));
        return args;
    }

    @Test
    void aCopyKilledAtHalfResumesExactlyWithoutReadingTheSourceAgain() throws Exception {
        Path state = InterruptIT.temporaryFolder("resume-copy-state");
        List<String> copy = args(state, "copy", "--dest-table", "resumecopy");
        try (ChildProcesses children = new ChildProcesses("resume-copy")) {
            long before = proxy.rowsRead(SOURCE);
            List<String> capped = new ArrayList<>(copy); // caps are the run's: the rerun, given none, lifts them
            capped.addAll(List.of("--max-rate", "5000"));
            Process first = start(children, "first", slow(), capped);
            awaitProgress(children, "first", first);
            // the same job a second time, while it runs: refused, the running one untouched
            Cli.Run twice = Cli.run(fast(), copy.toArray(String[]::new));
            assertThat(twice.exitCode()).as(twice.out() + twice.err()).isEqualTo(UserError.USAGE);
            assertThat(twice.err()).contains("this job is running already");
            killMidway(children, "first", first);

            Cli.Run jobs = Cli.run("jobs", "--state-dir", state.toString());
            assertThat(jobs.out()).contains("copy").contains("resumesource -> resumecopy");

            String out = completed(fast(), copy);
            assertThat(out).containsPattern("resuming scan scan-\\S+: [1-9][\\d,]* rows already done \\(started ");
            assertThat(out).contains("this run's caps: reads uncapped (were 5,000 rows/s), writes uncapped");
            assertThat(out).doesNotContain("\tat ").as("its own rows are no news").doesNotContain("already holds rows");
            assertExact("resumecopy");
            assertThat(jobDirs(state)).as("the state of a finished job goes").isEmpty();
            long resumedReads = reads(out);
            long bothRuns = proxy.rowsRead(SOURCE) - before;

            // killed again, then run with --restart: a new scan from the start, and its reads are one run's
            Process third = start(children, "third", slow(), copy);
            killMidway(children, "third", third);
            List<String> restart = new ArrayList<>(copy);
            restart.add("--restart");
            long beforeFourth = proxy.rowsRead(SOURCE);
            String again = completed(fast(), restart);
            long oneRun = proxy.rowsRead(SOURCE) - beforeFourth;
            assertThat(again).doesNotContain("resuming scan").contains(String.format("rows read:     %,d", ROWS));
            assertExact("resumecopy");
            assertThat(jobDirs(state)).isEmpty();
            assertThat(resumedReads).as("the killed run and its resumption read the source about once")
                    .isLessThanOrEqualTo((long) (reads(again) * 1.3));
            assertWithinBound("copy", bothRuns, oneRun);
        }
    }

    @Test
    void anExportKilledAtHalfResumesIntoOneFinishedExport() throws Exception {
        Path state = InterruptIT.temporaryFolder("resume-export-state");
        Path folder = InterruptIT.temporaryFolder("resume-export-files");
        List<String> export = args(state, "export", "--to", folder.toString());
        Path uninterrupted = InterruptIT.temporaryFolder("resume-export-once");
        try (ChildProcesses children = new ChildProcesses("resume-export")) {
            long before = proxy.rowsRead(SOURCE);
            Process first = start(children, "first", slow(), export);
            killMidway(children, "first", first);
            assertThat(folder.resolve(ExportClaim.NAME)).as("the killed run's claim").exists();

            String out = completed(fast(), export);
            assertThat(out).contains("resuming scan ").contains(String.format("exported %,d rows", ROWS));
            long bothRuns = proxy.rowsRead(SOURCE) - before;

            long beforeOnce = proxy.rowsRead(SOURCE);
            String once = completed(fast(), args(state, "export", "--to", uninterrupted.toString()));
            assertThat(once).as("the finished export next to it sizes this one").contains(
                    String.format("time left estimated for %,d rows, as many as the export in %s holds", ROWS, folder));
            assertWithinBound("export", bothRuns, proxy.rowsRead(SOURCE) - beforeOnce);
        }
        assertExportExact(folder);
        assertThat(folder.resolve(Manifest.NAME)).exists();
        assertThat(folder.resolve(ExportClaim.NAME)).doesNotExist();
        assertThat(jobDirs(state)).isEmpty();
        Cli.Run verify = Cli.run(fast(), "verify", "--from", folder.toString(), "--source-account", "emulator",
                "--source-table", "resumesource", "--state-dir", state.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.filter(f -> f.toString().endsWith(".jsonl.gz")).count()).as("one file set")
                    .isEqualTo(Manifest.parse(Files.readAllBytes(folder.resolve(Manifest.NAME))).files().size());
        }
    }

    /**
     * A local backup set of five tables, stopped with Ctrl-C in its second table, then SIGKILLed in its third, and
     * run again: the same set goes on, its finished tables not read again and the scan of its third followed on, and
     * it restores exactly (read back by the REST reader, not the SDK that wrote).
     */
    @Test
    void aBackupSetKilledInItsThirdTableGoesOnWithTheSameSet() throws Exception {
        int tables = 5;
        int rows = 300;
        for (int t = 1; t <= tables; t++) {
            SampleTable.write(LocalServices.store(), "resumeset" + t, SampleTable.rows(rows), 4);
        }
        Path state = InterruptIT.temporaryFolder("resume-set-state");
        Path place = InterruptIT.temporaryFolder("resume-set-place");
        List<String> backup = List.of("backup", "--source-account", "emulator", "--table-pattern", "resumeset*",
                "--parallel", "1", "--to", place.toString(), "--state-dir", state.toString());
        long[] before = reads(tables);
        String thirdScan;
        try (ChildProcesses children = new ChildProcesses("resume-set")) {
            // A table's rows come in a burst at the cap's pace: about 3 s a table
            List<String> capped = new ArrayList<>(backup);
            capped.addAll(List.of("--max-rate", "100"));
            // Ctrl-C once the second table is being read: exit 130, one line that says how to go on
            Process first = start(children, "first", fast(), capped);
            awaitStage(children, "first", first, state, "resumeset2", before[2]);
            new ProcessBuilder("kill", "-INT", Long.toString(first.pid())).inheritIO().start().waitFor();
            assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue()).as(children.output("first")).isEqualTo(UserError.INTERRUPTED);
            Matcher id = Pattern.compile("interrupted: [\\d,]+ rows read when stopped, [12] of 5 tables backed up; run "
                    + "the same command again to go on with backup set (\\S+) \\(").matcher(children.output("first"));
            assertThat(id.find()).as(children.output("first")).isTrue();
            assertThat(children.output("first")).as("no table of a set to go on with failed").doesNotContain("FAILED")
                    .doesNotContain("\tat ");
            // SIGKILL once the third table's scan is seeded and being read
            Process second = start(children, "second", fast(), capped);
            thirdScan = awaitStage(children, "second", second, state, "resumeset3", before[3]);
            kill(second);
            assertThat(children.output("second")).contains("resuming backup set " + id.group(1) + " (full) of 5 tables")
                    .containsPattern("resumeset2: (300 rows|backed up by the earlier run)")
                    .doesNotContain("resumeset3: 300");
        }
        assertThat(Cli.run("jobs", "--state-dir", state.toString()).out()).contains("backup")
                .contains("5 tables of emulator -> " + place);
        long[] killed = reads(tables);
        String set = Files.list(place).filter(Files::isDirectory).findFirst().orElseThrow().getFileName().toString();

        // a finished table's files gone meanwhile (a prune of unfinished sets, say): refused, not marked complete
        Path manifest = place.resolve(set).resolve("resumeset1").resolve(Manifest.NAME);
        Path aside = Files.move(manifest, manifest.resolveSibling("aside.json"));
        Cli.assertOneLine(Cli.run(fast(), backup.toArray(String[]::new)), UserError.FAILED, "backup set " + set
                + ": table resumeset1, backed up by the earlier run, is not as it left it (its manifest is gone): run "
                + "the same command with --restart to start a new set");
        Files.move(aside, manifest);

        String out = completed(fast(), backup);
        assertThat(out).containsPattern("resuming backup set \\S+ \\(full\\) of 5 tables to .*: 2 backed up by the "
                + "earlier run").contains("resumeset1: backed up by the earlier run")
                .containsPattern("backup set \\S+ complete: 5 tables, 1,500 rows");
        long[] after = reads(tables);
        assertThat(after[1] + after[2]).as("the finished tables not read again").isEqualTo(killed[1] + killed[2]);
        assertThat(Manifest.parse(Files.readAllBytes(place.resolve(set).resolve("resumeset3").resolve(Manifest.NAME)))
                .scanId()).as("the third table's scan followed on, not started again").isEqualTo(thirdScan);
        long all = 0;
        for (int t = 1; t <= tables; t++) {
            all += after[t] - before[t];
        }
        System.out.printf("resume figures: backup set: rows read by its three runs %,d of %,d (%.2fx)%n", all,
                tables * rows, all / (double) (tables * rows));
        assertThat(all).as("the runs together read the set about once").isLessThanOrEqualTo(
                (long) (tables * rows * 1.3));
        assertThat(jobDirs(state)).as("the state of a finished set goes").isEmpty();
        assertThat(Cli.run("backups", "list", "--from", place.toString()).out()).contains(set)
                .doesNotContain("NOT complete").doesNotContain("unfinished");
        try (Stream<Path> sets = Files.list(place)) {
            assertThat(sets.filter(Files::isDirectory).count()).as("one set").isEqualTo(1);
        }

        Cli.Run restore = Cli.run("restore", "--from", place.toString(), "--latest", "--dest-connection-string",
                LocalServices.azurite().connectionString(), "--table-prefix", "rx");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        for (int t = 1; t <= tables; t++) {
            TableComparer.Result check = TableComparer.compare(rest, "resumeset" + t, rest, "rxresumeset" + t);
            assertThat(check.examples()).as("resumeset" + t).isEmpty();
            assertThat(check.destinationRows()).isEqualTo(rows);
        }
    }

    /** The proxy's rows read of each of the set's tables so far, by table number. */
    private static long[] reads(int tables) {
        long[] reads = new long[tables + 1];
        for (int t = 1; t <= tables; t++) {
            reads[t] = proxy.rowsRead("resumeset" + t);
        }
        return reads;
    }

    /**
     * Waits until the set's state recorded {@code table}'s scan as seeded and the proxy served rows of it since
     * {@code before}, while {@code child} runs; returns that scan's id.
     */
    private static String awaitStage(ChildProcesses children, String label, Process child, Path state, String table,
            long before) {
        java.util.concurrent.atomic.AtomicReference<String> scan = new java.util.concurrent.atomic.AtomicReference<>();
        assertThat(FreePorts.await(() -> {
            scan.set(seededScan(state, table));
            return scan.get() != null && proxy.rowsRead(table) > before;
        }, Duration.ofMinutes(3), child::isAlive)).as(children.output(label)).isTrue();
        return scan.get();
    }

    /** The id of {@code table}'s scan as the set's state recorded it once seeded, or null. */
    private static String seededScan(Path state, String table) {
        try (Stream<Path> dirs = Files.list(state)) {
            for (Path dir : dirs.toList()) {
                java.util.Properties props = new java.util.Properties();
                try (var in = Files.newInputStream(dir.resolve("job.properties"))) {
                    props.load(in);
                }
                String spec = props.getProperty("stage." + table + ".spec");
                if ("true".equals(props.getProperty("stage." + table + ".seeded")) && spec != null) {
                    return io.tablescan.schema.ScanSpec.fromByteBuffer(java.nio.ByteBuffer.wrap(
                            java.util.Base64.getDecoder().decode(spec))).getScanId();
                }
            }
        } catch (java.io.IOException e) {
            return null; // not written yet, or being replaced
        }
        return null;
    }

    @Test
    void jobsListsAKilledJobAndRemovesItsState() throws Exception {
        Path state = InterruptIT.temporaryFolder("resume-jobs-state");
        try (ChildProcesses children = new ChildProcesses("resume-jobs")) {
            Process count = start(children, "count", slow(), args(state, "count"));
            killMidway(children, "count", count);
        }
        Cli.Run jobs = Cli.run("jobs", "--state-dir", state.toString());
        assertThat(jobs.exitCode()).isZero();
        Matcher row = Pattern.compile("(?m)^([0-9a-f]{16})\\s+count\\s+resumesource").matcher(jobs.out());
        assertThat(row.find()).as(jobs.out()).isTrue();
        Cli.Run removed = Cli.run("jobs", "remove", row.group(1), "--state-dir", state.toString());
        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(jobDirs(state)).isEmpty();
        assertThat(Cli.run("jobs", "--state-dir", state.toString()).out()).contains("no unfinished local job");
        Cli.assertOneLine(Cli.run("jobs", "remove", row.group(1), "--state-dir", state.toString()),
                UserError.NOT_FOUND, "no local job " + row.group(1));
    }

    /**
     * Runs a command that is not killed in this JVM (no child JVM to start: the kills need one, the runs after them
     * do not); it must exit 0. Returns what it printed, both streams.
     */
    private static String completed(Map<String, String> env, List<String> args) {
        Cli.Run run = Cli.run(env, args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        return run.out() + run.err();
    }

    private static Process start(ChildProcesses children, String label, Map<String, String> env, List<String> args)
            throws Exception {
        Files.deleteIfExists(children.log(label).toPath()); // logs are appended to: drop an earlier run's
        return children.start(label, env, args.toArray(String[]::new));
    }

    /** SIGKILL once the first progress line shows rows read (about a third to a half of the table), not all. */
    private static void killMidway(ChildProcesses children, String label, Process child) throws InterruptedException {
        awaitProgress(children, label, child);
        kill(child);
        assertThat(lastRows(children.output(label))).as("killed before the end").isLessThan(ROWS);
    }

    private static void awaitProgress(ChildProcesses children, String label, Process child) {
        assertThat(FreePorts.await(() -> lastRows(children.output(label)) > 0, Duration.ofMinutes(3),
                child::isAlive)).as(children.output(label)).isTrue();
    }

    private static long lastRows(String out) {
        Matcher m = ROWS_DONE.matcher(out);
        long rows = -1;
        while (m.find()) {
            rows = Long.parseLong(m.group(1).replace(",", ""));
        }
        return rows;
    }

    private static void kill(Process child) throws InterruptedException {
        child.destroyForcibly(); // SIGKILL: no hook runs
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    private static long reads(String out) {
        Matcher m = READS.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /**
     * The source's rows read by a killed run and its rerun together: at most 1.3 times one uninterrupted run's, plus
     * eight pages of 20 rows. What a rerun reads again is the pages in flight at the kill, a fixed few: on this
     * 2,000-row table they alone came to 1.22 to 1.28 times (on 100,000 rows an export's are 1.15 times, see
     * docs/performance.md), so the allowance keeps the check about re-reading finished ranges, not about timing.
     */
    private static void assertWithinBound(String job, long bothRuns, long oneRun) {
        System.out.printf("resume figures: %s: rows read by the killed run and its rerun %,d, by one uninterrupted "
                + "run %,d (%.2fx)%n", job, bothRuns, oneRun, bothRuns / (double) oneRun);
        assertThat(oneRun).as("one run reads the table").isGreaterThanOrEqualTo(ROWS);
        assertThat(bothRuns).as(job + ": rows read by both runs, one run read " + oneRun)
                .isLessThanOrEqualTo((long) (oneRun * 1.3) + 8 * 20);
    }

    /** Without the tool: the manifest's counts and hashes hold, and the files hold the source's keys, once each. */
    private static void assertExportExact(Path folder) throws Exception {
        Manifest manifest = Manifest.parse(Files.readAllBytes(folder.resolve(Manifest.NAME)));
        assertThat(manifest.totalRows()).isEqualTo(ROWS);
        ObjectMapper json = new ObjectMapper();
        List<String> exported = new ArrayList<>();
        for (Manifest.DataFile file : manifest.files()) {
            byte[] data = Files.readAllBytes(folder.resolve(file.name()));
            assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)))
                    .isEqualTo(file.sha256());
            List<String> lines = BackupIT.gunzip(data).lines().toList();
            assertThat(lines).hasSize((int) file.rows());
            for (String line : lines) {
                JsonNode row = json.readTree(line);
                exported.add(row.get("PartitionKey").asText() + "\u0000" + row.get("RowKey").asText());
            }
        }
        Set<String> source = new HashSet<>();
        RestTableReader.fromConnectionString(LocalServices.azurite().connectionString()).rows(SOURCE)
                .forEachRemaining(r -> source.add(r.partitionKey() + "\u0000" + r.rowKey()));
        assertThat(source).hasSize(ROWS);
        assertThat(exported).hasSize(ROWS).doesNotHaveDuplicates();
        assertThat(new HashSet<>(exported)).isEqualTo(source);
    }

    private static void assertExact(String copy) {
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        TableComparer.Result check = TableComparer.compare(rest, "resumesource", rest, copy);
        assertThat(check.examples()).isEmpty();
        assertThat(check.destinationRows()).isEqualTo(ROWS);
    }

    private static List<Path> jobDirs(Path state) throws Exception {
        try (Stream<Path> dirs = Files.list(state)) {
            return dirs.toList();
        }
    }
}
