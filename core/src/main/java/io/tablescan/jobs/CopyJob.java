package io.tablescan.jobs;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.status.ScanTotals;

/**
 * A copy: every row read goes as entity batches to the copy-worker, which writes it to the scan's sink (the
 * destination table, rows to a topic, a plugin's sink, an export's staging topic).
 */
public final class CopyJob implements Job {
    public static final String NAME = "copy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep step) {
        return Steps.read(step, true);
    }

    @Override
    public int summary(ScanTotals t, Summary out) {
        return summary(t, out, true);
    }

    /** A copy's lines; {@code nextSince}: whether the job takes --since, so the next run's is given. */
    static int summary(ScanTotals t, Summary out, boolean nextSince) {
        out.head(t);
        if (t.spec() != null) {
            out.out().printf("  tables:        %s -> %s%n", out.source(t.spec()), out.target(t.spec()));
        }
        out.rows(t);
        out.pace(t);
        out.work(t);
        out.emptyHint(t);
        if (nextSince) {
            out.nextSince(t);
        }
        out.errors(t, null);
        return out.scanCode(t);
    }
}
