package io.tablescan.jobs;

import static io.tablescan.job.Summary.plural;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.ScanTotals;

/**
 * A count: the readers read the keys only and emit no entity batches; the scan's rows read and partitions, exact
 * under replays, are the result.
 */
public final class CountJob implements Job {
    public static final String NAME = "count";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
    }

    @Override
    public void legacyFlags(ScanSpec.Builder spec) {
        spec.setCount(true);
    }

    @Override
    public boolean keysOnly() {
        return true;
    }

    @Override
    public boolean writes() {
        return false;
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep step) {
        return Steps.read(step, false);
    }

    /** The scan, then the count itself on the last line (exact only when completed). */
    @Override
    public int summary(ScanTotals t, Summary out) {
        return out.oneTable(t, "count again", countLine(t));
    }

    /** "1,237 rows in 412 partitions" when exact; what was counted so far when not. */
    public static String countLine(ScanTotals t) {
        String count = plural(t.rowsRead(), "row") + " in " + plural(t.partitions(), "partition");
        return t.state() == ScanState.COMPLETED ? count : "not exact (the count did not complete): at least " + count;
    }
}
