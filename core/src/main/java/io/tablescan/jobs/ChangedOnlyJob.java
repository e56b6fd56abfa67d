package io.tablescan.jobs;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import java.util.List;

/**
 * A copy of changes only: as a mirror, the readers compare each range with the destination table and emit only the
 * rows missing or different there, but delete nothing; --since and --filter allowed.
 */
public final class ChangedOnlyJob implements Job {
    public static final String NAME = "changed-only";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
        request.needsTable("it compares with a table");
    }

    @Override
    public void legacyFlags(ScanSpec.Builder spec) {
        spec.setChangedOnly(true);
    }

    @Override
    public boolean readsDestination() {
        return true;
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep step) {
        return Comparison.compare(step, true, false);
    }

    @Override
    public List<String> counters() {
        return List.of(Counters.MISSING, Counters.DIFFERENT, Counters.EXTRA, Counters.CONFLICTS);
    }

    @Override
    public int summary(ScanTotals t, Summary out) {
        return MirrorJob.written(t, out, CopyJob.summary(t, out, true), true);
    }
}
