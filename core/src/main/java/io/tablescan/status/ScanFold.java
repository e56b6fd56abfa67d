package io.tablescan.status;

import io.tablescan.runtime.ItemKind;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanEvent;
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

    /** Items emitted and not yet done, failed or skipped. */
    public static long open(ScanStatus s) {
        return sum(s.getEmitted()) - sum(s.getDone()) - sum(s.getFailed()) - sum(s.getSkipped());
    }

    /** Rows written, or rows read for a scan without a sink and for a verify (which writes nothing). */
    public static long rowsCopied(ScanStatus s) {
        return s.getSpec() != null && (s.getSpec().getVerify() || SinkRefs.of(s.getSpec()) == null) ? s.getRowsRead()
                : s.getRowsWritten();
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

    /** An ended scan's rate: its rows over its whole time, start to last event. */
    private static void average(ScanStatus s) {
        long millis = s.getLastEventMillis() - s.getStartMillis();
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
