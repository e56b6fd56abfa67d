package io.tablescan.cli;

import io.tablescan.runner.RunOptions;
import io.tablescan.runner.RunView;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.Map;

/** The run options of a command that shows its progress with a printer and stops on Ctrl-C. */
final class CliRun {
    private CliRun() {}

    static RunOptions options(ProgressPrinter printer, Interrupt interrupt, Map<String, String> env) {
        return RunOptions.defaults().withEnv(env).withView(view(printer)).withStop(interrupt::requested);
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
            public void progress(ScanTotals totals) {
                printer.progress(totals);
            }

            @Override
            public void resuming(String line) {
                printer.line(line);
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
