package io.tablescan.cli;

import io.tablescan.runner.ClusterJob;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runner.RunView;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.Map;

/** The run options of a command that shows its progress with a printer and stops on Ctrl-C. */
final class CliRun {
    private CliRun() {}

    static RunOptions options(ProgressPrinter printer, Interrupt interrupt, Map<String, String> env) {
        return RunOptions.defaults().withEnv(env).withView(view(printer)).withStop(interrupt::requested);
    }

    /**
     * Runs a table job: on the cluster's own workers when there is a cluster, it has live workers and a ledger, and
     * {@code aliases} (the scan names its accounts by aliases the workers resolve, and --in-process was not given):
     * this command is then only the job's client. Else in this process, as {@link CopyRun#runHere} does.
     */
    static CopyRun.Outcome run(KafkaSettings cluster, boolean aliases, Accounts accounts, ScanSpec spec,
            RunOptions options, ProgressPrinter printer) {
        if (cluster != null && aliases && ClusterJob.hasWorkers(cluster)) {
            printer.hints(ProgressPrinter.Hints.cluster(cluster.bootstrapServers()));
            System.err.println("tablescan: on the workers of the cluster at " + cluster.bootstrapServers()
                    + " (namespace " + cluster.namespace() + "): the scan goes on if this command is killed; Ctrl-C "
                    + "cancels it");
            return ClusterJob.run(cluster, spec, options).outcome();
        }
        return CopyRun.runHere(cluster, accounts, spec, options);
    }

    static RunView view(ProgressPrinter printer) {
        return new RunView() {
            @Override
            public Duration interval() {
                return printer.interval();
            }

            @Override
            public void header(ScanSpec spec) {
                printer.progressHeader(spec);
            }

            @Override
            public void attached(ScanTotals running) {
                System.err.println(running.ended()
                        ? "tablescan: the same job ran on the cluster as scan " + running.scanId() + " and has ended"
                        : "tablescan: the same job is running on the cluster as scan " + running.scanId()
                                + ": following it instead of starting another");
            }

            @Override
            public void progress(ScanTotals totals) {
                printer.progress(totals);
            }

            @Override
            public void resuming(String line) {
                printer.resuming(line);
            }

            @Override
            public void pausing() {
                printer.endLine();
                printer.pausing();
            }

            @Override
            public void stopping() {
                printer.endLine();
                printer.stopping();
            }
        };
    }
}
