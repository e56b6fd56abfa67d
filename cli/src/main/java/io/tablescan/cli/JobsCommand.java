package io.tablescan.cli;

import io.tablescan.runner.JobStates;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `tablescan jobs`: the local jobs a rerun would resume, and `jobs remove KEY` to discard one. */
@Command(name = "jobs", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan jobs [--state-dir=DIR]", "tablescan jobs remove KEY [--state-dir=DIR]"},
        description = "Lists the local jobs that did not finish (the same command run again resumes them), or "
                + "removes one's state.")
final class JobsCommand extends TablescanCommand.ReadsEnvironment {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    @Option(names = "--state-dir", paramLabel = "DIR", description = "The jobs' state folder (default: "
            + "$TABLESCAN_STATE_DIR, else ~/.tablescan/jobs; when that cannot be written, the folder in the temp "
            + "directory that local jobs use instead).")
    Path stateDir;

    @Parameters(arity = "0..2", paramLabel = "remove KEY", description = "remove KEY: delete that job's state.")
    List<String> words = List.of();

    @Override
    public Integer call() {
        Path root = io.tablescan.runner.StateRoots.forReading(stateDir, env); // where local jobs went; creates nothing
        if (!words.isEmpty()) {
            if (words.size() != 2 || !words.get(0).equals("remove")) {
                throw new UserError(UserError.USAGE, "usage: tablescan jobs [remove KEY]");
            }
            if (!JobStates.remove(root, words.get(1))) {
                throw new UserError(UserError.NOT_FOUND, "no local job " + words.get(1) + " in " + root);
            }
            System.out.println("removed the state of job " + words.get(1));
            return 0;
        }
        List<JobStates.Entry> jobs = JobStates.list(root);
        if (jobs.isEmpty()) {
            System.out.println("no unfinished local job in " + root);
            return 0;
        }
        System.out.printf("%-16s  %-7s  %-40s  %-16s  %14s  %10s%n", "KEY", "JOB", "TABLES", "STARTED", "ROWS DONE",
                "ON DISK");
        for (JobStates.Entry job : jobs) {
            System.out.printf("%-16s  %-7s  %-40s  %-16s  %,14d  %10s%s%n", job.key(), job.job(), job.tables(),
                    job.started() == null ? "-" : WHEN.format(job.started()), job.rows(), size(job.bytes()),
                    job.running() ? "  (running)" : job.seeded() ? "" : "  (stopped before its scan was seeded: "
                            + "a rerun starts it over)");
        }
        return 0;
    }

    private static String size(long bytes) {
        return bytes < 1 << 20 ? String.format("%,d KiB", (bytes + 1023) >> 10) : String.format("%,d MiB", bytes >> 20);
    }
}
