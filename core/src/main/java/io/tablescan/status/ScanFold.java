package io.tablescan.status;

import io.tablescan.runtime.ItemKind;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.JobRef;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.sink.SinkRefs;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's arithmetic: folds one committed scan event into the scan's status. Pure and deterministic
 * (times come from the events), so a ledger that restarts and replays reaches the same status.
 */
public final class ScanFold {
    /** The current rate is measured over the last one or two windows of about this length. */
    static final long RATE_WINDOW_MILLIS = 5_000;
    static final int MAX_ERRORS = 5;
    /** DeleteJob's name and its dry-run option (see {@link #deletes}). */
    public static final String DELETE_JOB = "delete";
    public static final String DRY_RUN = "dry-run";

    private ScanFold() {}

    public static ScanStatus apply(ScanStatus current, ScanEvent event) {
        ScanStatus s = current == null ? empty(event.getScanId()) : ScanStatus.newBuilder(current).build();
        if (event.getSpec() != null) {
            s.setSpec(event.getSpec());
            s.setStartMillis(event.getSpec().getCreatedAtMillis());
        }
        s.setEmitted(plus(s.getEmitted(), event.getEmitted(), 1));
        s.setDone(plus(s.getDone(), event.getDone(), 1));
        s.setFailed(plus(plus(s.getFailed(), event.getFailed(), 1), event.getRetried(), -1));
        s.setSkipped(plus(s.getSkipped(), event.getSkipped(), 1));
        s.setRetriedItems(s.getRetriedItems() + sum(event.getRetried()));
        s.setRowsRead(s.getRowsRead() + event.getRowsRead());
        s.setRowsWritten(s.getRowsWritten() + event.getRowsWritten());
        s.setPartitions(s.getPartitions() + event.getPartitions());
        // An event of an earlier version holds its counts in fields of their own: folded in under their names.
        s.setCounters(Counters.plus(s.getCounters(), event.getCounters(), event.getRowsMissing(),
                event.getRowsDiffering(), event.getRowsExtra(), event.getRowsDeleted()));
        if (event.getCounters().getOrDefault(Counters.RESUMED, 0L) > 0) {
            resumed(s, event.getTimeMillis());
        }
        s.setRequests(s.getRequests() + event.getRequests());
        s.setWriteRequests(s.getWriteRequests() + event.getWriteRequests());
        s.setRetries(s.getRetries() + event.getRetries());
        s.setThrottles(s.getThrottles() + event.getThrottles());
        s.setMaxDepth(Math.max(s.getMaxDepth(), event.getMaxDepth()));
        if (s.getStartMillis() == 0) {
            s.setStartMillis(event.getTimeMillis());
        }
        s.setLastEventMillis(Math.max(s.getLastEventMillis(), event.getTimeMillis()));
        String error = event.getFirstError();
        if (error != null && s.getErrors().size() < MAX_ERRORS && !s.getErrors().contains(error)) {
            List<String> errors = new ArrayList<>(s.getErrors());
            errors.add(error);
            s.setErrors(errors);
        }
        updateRate(s);
        updateState(s, event.getCancelled());
        return s;
    }

    /**
     * A stopped job resumes: the time since the stopped run's last event is no time of the scan's (its duration and
     * average rate leave it out), and its recent rate starts over from the rows done so far, not the stopped run's.
     */
    private static void resumed(ScanStatus s, long millis) {
        if (s.getLastEventMillis() > 0 && millis > s.getLastEventMillis()) {
            var counters = new java.util.HashMap<>(s.getCounters());
            counters.merge(Counters.STOPPED_MILLIS, millis - s.getLastEventMillis(), Long::sum);
            s.setCounters(counters);
        }
        long rows = rowsCopied(s);
        s.setRateWindowStartMillis(millis);
        s.setRateWindowStartRows(rows);
        s.setPreviousWindowStartMillis(millis);
        s.setPreviousWindowStartRows(rows);
        s.setRowsPerSecond(0);
    }

    /** Time the scan ran from its start to {@code millis}: without the time it was stopped between runs. */
    public static long runningMillis(ScanStatus s, long millis) {
        return Math.max(0, millis - s.getStartMillis() - s.getCounters().getOrDefault(Counters.STOPPED_MILLIS, 0L));
    }

    /** Items emitted and not yet done, failed or skipped. */
    public static long open(ScanStatus s) {
        return sum(s.getEmitted()) - sum(s.getDone()) - sum(s.getFailed()) - sum(s.getSkipped());
    }

    /**
     * The rows the job has done: rows written; a delete's rows whose delete request answered (deleted, already gone,
     * or kept as changed since read); rows read for the jobs that compare each row as they read it (verify, mirror,
     * changed-only: they write only the rows that differ) and for a scan without a sink.
     */
    public static long rowsCopied(ScanStatus s) {
        ScanSpec spec = s.getSpec();
        if (spec != null && deletes(spec)) {
            return counter(s, Counters.DELETED) + counter(s, Counters.SKIPPED);
        }
        boolean compares = spec != null && (spec.getVerify() || spec.getMirror() || spec.getChangedOnly());
        return compares || (spec != null && SinkRefs.of(spec) == null) ? s.getRowsRead() : s.getRowsWritten();
    }

    /**
     * A delete job that deletes (not a dry run): its rows are read long before their deletes are sent. By name, as
     * the job's own class (io.tablescan.jobs.DeleteJob) depends on this package.
     */
    private static boolean deletes(ScanSpec spec) {
        JobRef job = spec.getJob();
        return job != null && DELETE_JOB.equals(job.getName()) && !"true".equals(job.getOptions().get(DRY_RUN));
    }

    private static long counter(ScanStatus s, String name) {
        return s.getCounters().getOrDefault(name, 0L) + (name.equals(Counters.DELETED) ? s.getRowsDeleted() : 0);
    }

    public static long sum(ItemCounts c) {
        long sum = 0;
        for (ItemKind kind : ItemKind.values()) {
            sum += kind.count(c);
        }
        return sum;
    }

    private static void updateState(ScanStatus s, boolean cancelEvent) {
        if (cancelEvent && s.getState() != ScanState.CANCELLED) {
            s.setState(ScanState.CANCELLED);
            s.setEndMillis(s.getLastEventMillis());
            average(s);
        } else if (s.getState() == ScanState.CANCELLED) {
            // Stays cancelled while the skipped items drain; those add no rows, and a rate of the last seconds
            // would fall to 0 where the summary says "average".
            average(s);
        } else if (s.getSpec() != null && open(s) == 0) {
            s.setState(sum(s.getFailed()) > 0 ? ScanState.COMPLETED_WITH_FAILURES : ScanState.COMPLETED);
            s.setEndMillis(s.getLastEventMillis());
            average(s);
        } else {
            s.setState(ScanState.RUNNING);
            s.setEndMillis(null);
        }
    }

    /** An ended scan's rate: its rows over the time it ran, start to end (a resumed job's stop left out). */
    private static void average(ScanStatus s) {
        // to its end: a cancelled scan's skipped items drain after it, adding events but no rows
        long millis = runningMillis(s, s.getEndMillis() != null ? s.getEndMillis() : s.getLastEventMillis());
        s.setRowsPerSecond(millis > 0 ? rowsCopied(s) * 1000.0 / millis : 0);
    }

    /**
     * The rate spans the current window and the one before it (5 to 10 s; from the start during the first 5 s),
     * so it includes the latest rows: a rate of full windows alone lags up to 5 s and shows 0 for as long as
     * the first window, often without rows while the scan starts, is the last one full.
     */
    private static void updateRate(ScanStatus s) {
        if (s.getRateWindowStartMillis() == 0) {
            s.setRateWindowStartMillis(s.getStartMillis());
            s.setPreviousWindowStartMillis(s.getStartMillis());
        }
        long rows = rowsCopied(s);
        if (s.getLastEventMillis() - s.getRateWindowStartMillis() >= RATE_WINDOW_MILLIS) {
            s.setPreviousWindowStartMillis(s.getRateWindowStartMillis());
            s.setPreviousWindowStartRows(s.getRateWindowStartRows());
            s.setRateWindowStartMillis(s.getLastEventMillis());
            s.setRateWindowStartRows(rows);
        }
        long elapsed = s.getLastEventMillis() - s.getPreviousWindowStartMillis();
        if (elapsed > 0) {
            s.setRowsPerSecond((rows - s.getPreviousWindowStartRows()) * 1000.0 / elapsed);
        }
    }

    private static ScanStatus empty(String scanId) {
        ItemCounts zero = ItemKind.counts(kind -> 0);
        return ScanStatus.newBuilder().setScanId(scanId).setState(ScanState.RUNNING).setEmitted(zero).setDone(zero)
                .setFailed(zero).setSkipped(zero).setRowsRead(0).setRowsWritten(0).setRequests(0).setRetries(0).setThrottles(0).setMaxDepth(0)
                .setStartMillis(0).setLastEventMillis(0).setRowsPerSecond(0).setRateWindowStartMillis(0)
                .setRateWindowStartRows(0).setErrors(List.of()).build();
    }

    private static ItemCounts plus(ItemCounts a, ItemCounts b, int sign) {
        return ItemKind.counts(kind -> kind.count(a) + sign * kind.count(b));
    }
}
