package io.tablescan.jobs;

import static io.tablescan.job.Summary.plural;

import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.job.ReadStep;
import io.tablescan.job.Summary;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A verify: the readers compare each range of the source with the same range of the destination table, publish
 * the differences and emit no entity batches. Exit 0 only if the tables are equal, {@link Summary#DIFFERENT} if not.
 * With option {@value #DRY_RUN_OF} = mirror, a mirror's dry run: its findings are told as what the mirror would do.
 */
public final class VerifyJob implements Job {
    public static final String NAME = "verify";
    /** The job whose dry run this verify is (its summary tells what that job would do). */
    public static final String DRY_RUN_OF = "dryRunOf";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> options() {
        return Set.of(DRY_RUN_OF);
    }

    @Override
    public void validate(JobRequest request) {
        request.onlyOptions(this);
        String of = request.options().get(DRY_RUN_OF);
        if (of != null && !of.equals(MirrorJob.NAME)) {
            throw new JobRequest.Refused("a dry run is of a mirror, not of " + of);
        }
        request.needsTable("it compares with a table");
        request.noSince("rows deleted from the source since then would go unseen; it compares whole ranges");
    }

    @Override
    public void legacyFlags(ScanSpec.Builder spec) {
        spec.setVerify(true);
    }

    @Override
    public boolean readsDestination() {
        return true;
    }

    @Override
    public boolean writes() {
        return false;
    }

    @Override
    public ItemHandler.Result afterRead(ReadStep step) {
        return Comparison.compare(step, false, false);
    }

    @Override
    public List<String> counters() {
        return List.of(Counters.MISSING, Counters.DIFFERENT, Counters.EXTRA);
    }

    /** The tables compared, the pace and work; then the differences and the verdict (or a dry run's). */
    @Override
    public int summary(ScanTotals t, Summary out) {
        out.head(t);
        out.out().printf("  tables:        %s/%s compared with %s%n", t.spec().getSource().getAccount(),
                t.spec().getSource().getTable(), out.target(t.spec()));
        out.pace(t);
        out.work(t);
        out.errors(t, "verify again");
        int code = out.scanCode(t);
        var job = t.spec().getJob();
        if (job != null && MirrorJob.NAME.equals(job.getOptions().get(DRY_RUN_OF))) {
            return MirrorJob.dryRun(t, out, code);
        }
        return verdict(t, out, code);
    }

    /** The differences and the verdict; the exit code: 0 equal, 7 different, else the scan's. */
    private static int verdict(ScanTotals t, Summary out, int code) {
        PrintStream o = out.out();
        long missing = t.counter(Counters.MISSING);
        long different = t.counter(Counters.DIFFERENT);
        long extra = t.counter(Counters.EXTRA);
        o.printf("  compared:      %s%n", plural(t.rowsRead(), "row"));
        o.printf("  missing:       %,d (in the source, not in the destination)%n", missing);
        o.printf("  different:     %,d (in both, with other properties)%n", different);
        o.printf("  extra:         %,d (in the destination, not in the source)%n", extra);
        Map<DifferenceKind, String> labels = new EnumMap<>(DifferenceKind.class);
        labels.put(DifferenceKind.MISSING, "missing");
        labels.put(DifferenceKind.DIFFERENT, "different");
        labels.put(DifferenceKind.EXTRA, "extra");
        out.differences(labels, counts(t));
        if (code != 0 || t.state() != ScanState.COMPLETED) {
            o.println("not verified: the scan did not complete, so the tables were not compared in full");
            return code == 0 ? Summary.FAILED : code;
        }
        if (missing + different + extra == 0) {
            o.printf("equal: %s compared, no differences%n", plural(t.rowsRead(), "row"));
            return 0;
        }
        o.printf("different: %,d missing, %,d different, %,d extra%n", missing, different, extra);
        return Summary.DIFFERENT;
    }

    /** The counts of the differences by kind. */
    static Map<DifferenceKind, Long> counts(ScanTotals t) {
        return Map.of(DifferenceKind.MISSING, t.counter(Counters.MISSING), DifferenceKind.DIFFERENT,
                t.counter(Counters.DIFFERENT), DifferenceKind.EXTRA, t.counter(Counters.EXTRA));
    }
}
