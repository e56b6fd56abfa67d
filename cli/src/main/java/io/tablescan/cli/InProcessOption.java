package io.tablescan.cli;

import picocli.CommandLine.Option;

/** Whether a table job given --kafka may run on the cluster's own workers (see {@link CliRun#run}). */
final class InProcessOption {
    @Option(names = "--in-process", description = "With --kafka: run the workers in this process, in topics and "
            + "groups of this command's own, even when the cluster has workers (default: when it has workers and a "
            + "ledger and the accounts are given as aliases, they run the job and this command follows it).")
    boolean inProcess;

    /** {@code aliases}: the scan names only accounts given as aliases, which the cluster's workers resolve. */
    boolean onWorkers(boolean aliases) {
        return aliases && !inProcess;
    }
}
