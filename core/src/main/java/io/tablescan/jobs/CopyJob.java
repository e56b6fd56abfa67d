package io.tablescan.jobs;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.WriteMode;
import java.util.List;
import java.util.Set;

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

    /** The write mode ({@link WriteMode#OPTION}): how a row the destination table holds already is written. */
    @Override
    public Set<String> options() {
        return Set.of(WriteMode.OPTION);
    }

    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
        String mode = request.options().get(WriteMode.OPTION);
        if (mode != null) {
            try {
                WriteMode.parse(mode);
            } catch (IllegalArgumentException e) {
                throw new JobRequest.Refused(e.getMessage());
            }
            request.needsTable("--write-mode is how rows are written to a table");
        }
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep step) {
        return Steps.read(step, true);
    }

    @Override
    public List<String> counters() {
        return List.of(Counters.EXISTING, Counters.SKIPPED);
    }

    /** A copy's lines; an insert that left existing rows exits {@link Summary#DIFFERENT} (7) once complete. */
    @Override
    public int summary(ScanTotals t, Summary out) {
        int code = summary(t, out, true);
        WriteMode mode = t.spec() == null || t.spec().getJob() == null ? WriteMode.REPLACE
                : WriteMode.of(t.spec().getJob().getOptions());
        if (!mode.inserts()) {
            return code;
        }
        long existing = t.counter(Counters.EXISTING);
        long skipped = t.counter(Counters.SKIPPED);
        out.out().printf("write mode %s: %,d written (or found equal); %,d held other values in the destination, left as they "
                + "were%s%n",
                mode.option(), t.rowsWritten(), existing + skipped, mode == WriteMode.INSERT && existing > 0
                        ? " (exit 7)" : "");
        return code == 0 && existing > 0 ? Summary.DIFFERENT : code;
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
