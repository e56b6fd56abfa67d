package io.tablescan.cli;

import io.tablescan.runner.RunView;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/** A client's view of a job on a cluster that notes when the job runs there, so that Ctrl-C can detach from it. */
final class Detaching {
    private Detaching() {}

    /** Thrown out of the wait for the job when Ctrl-C detaches from it: nothing is cancelled. */
    static final class Detached extends RuntimeException {
        Detached() {
            super("detached", null, false, false);
        }
    }

    /** {@code view}, setting {@code running} once the job is seeded or attached to (its header is shown). */
    static RunView view(RunView view, AtomicBoolean running) {
        return new RunView() {
            @Override
            public Duration interval() {
                return view.interval();
            }

            @Override
            public void header(ScanSpec spec) {
                running.set(true);
                view.header(spec);
            }

            @Override
            public void attached(ScanTotals totals) {
                view.attached(totals);
            }

            @Override
            public void progress(ScanTotals totals) {
                view.progress(totals);
            }

            @Override
            public void resuming(String line) {
                view.resuming(line);
            }

            @Override
            public void pausing() {
                view.pausing();
            }

            @Override
            public void stopping() {
                view.stopping();
            }
        };
    }
}
