package io.tablescan.ledger.page;

import io.tablescan.backup.ExportTarget;
import io.tablescan.job.Job;
import io.tablescan.job.Jobs;
import io.tablescan.logging.Redaction;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanFold;
import io.tablescan.status.ScanTotals;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scan as the page's JSON shows it. Only what a status line shows: account aliases and table names, a job's name,
 * counts, caps and the failures' reasons. Never a sink's options or a filter's text: either may hold whatever a user
 * typed. What is shown as text (a reason, a sink's target) is masked as the logs are ({@link Redaction}): a library's
 * message may quote a URL with its signature.
 */
public final class ScanJson {
    private ScanJson() {}

    /** The line of the scans table. */
    static Map<String, Object> summary(ScanBoard.Scan scan, long nowMillis) {
        ScanStatus s = scan.status();
        ScanSpec spec = s.getSpec();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", s.getScanId());
        json.put("job", job(spec));
        json.put("source", spec.getSource().getAccount() + "/" + spec.getSource().getTable());
        json.put("target", target(spec));
        json.put("state", s.getState().name());
        json.put("startMillis", s.getStartMillis());
        json.put("endMillis", s.getEndMillis());
        boolean running = s.getState() == ScanState.RUNNING;
        json.put("elapsedMillis", ScanFold.runningMillis(s, running ? nowMillis
                : s.getEndMillis() != null ? s.getEndMillis() : s.getLastEventMillis()));
        json.put("rows", ScanFold.rowsCopied(s));
        json.put("rowsRead", s.getRowsRead());
        json.put("rowsWritten", s.getRowsWritten());
        // a running scan's recent rate, an ended one's average (as status prints them)
        json.put("rowsPerSecond", Math.round(s.getRowsPerSecond()));
        Map<String, Object> items = new LinkedHashMap<>();
        items.put("emitted", ScanFold.sum(s.getEmitted()));
        items.put("done", ScanFold.sum(s.getDone()));
        items.put("failed", ScanFold.sum(s.getFailed()));
        items.put("skipped", ScanFold.sum(s.getSkipped()));
        items.put("open", ScanFold.open(s));
        items.put("discovering", running && open(s.getEmitted().getPrefixQueries(), s, ItemCounts::getPrefixQueries));
        json.put("items", items);
        json.put("caps", Map.of("read", scan.readCap(), "write", scan.writeCap()));
        json.put("throttles", s.getThrottles());
        json.put("retries", s.getRetries());
        json.put("failureReasons", s.getErrors().size());
        return json;
    }

    /** The scan's own page: its line, its failures' reasons, its job's counters and its progress over time. */
    static Map<String, Object> detail(ScanBoard.Scan scan, long nowMillis) {
        ScanStatus s = scan.status();
        ScanSpec spec = s.getSpec();
        Map<String, Object> json = summary(scan, nowMillis);
        json.put("errors", s.getErrors().stream().map(Redaction::mask).toList());
        json.put("counters", new TreeMap<>(s.getCounters()));
        if (readsDestination(spec)) { // a verify's or mirror's differences, zeros too (its summary's figures)
            ScanTotals totals = new ScanTotals(s.getScanId(), s);
            Map<String, Long> differences = new LinkedHashMap<>();
            for (String name : List.of(Counters.MISSING, Counters.DIFFERENT, Counters.EXTRA)) {
                differences.put(name, totals.counter(name));
            }
            json.put("differences", differences);
        }
        json.put("partitions", s.getPartitions());
        json.put("requests", s.getRequests());
        json.put("writeRequests", s.getWriteRequests());
        json.put("retriedItems", s.getRetriedItems());
        json.put("pageSize", spec.getPageSize());
        json.put("strategy", spec.getStrategy().name());
        json.put("filtered", spec.getRowFilter() != null || spec.getLowerPartition() != null
                || spec.getUpperPartition() != null);
        List<long[]> points = new ArrayList<>(scan.points());
        json.put("points", points);
        return json;
    }

    private static boolean readsDestination(ScanSpec spec) {
        try {
            return Jobs.of(spec).readsDestination();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean open(long emitted, ScanStatus s, java.util.function.ToLongFunction<ItemCounts> kind) {
        return emitted > kind.applyAsLong(s.getDone()) + kind.applyAsLong(s.getFailed()) + kind.applyAsLong(s.getSkipped());
    }

    private static String job(ScanSpec spec) {
        try {
            return Jobs.of(spec).name();
        } catch (RuntimeException e) {
            return spec.getJob() == null ? "?" : spec.getJob().getName().toString(); // a job of a newer version
        }
    }

    /** Where the rows go, as the commands name it: a table, an export's target, a topic or a sink by type. */
    static String target(ScanSpec spec) {
        return target(spec, true);
    }

    /**
     * As above, the account alias of a table or sink shown or not; a sink's target masked as the logs are (a
     * plugin's target is whatever the user typed). The one description: {@code status} and the progress lines
     * print it too.
     */
    public static String target(ScanSpec spec, boolean withAccount) {
        Job job;
        try {
            job = Jobs.of(spec);
        } catch (RuntimeException e) {
            job = null; // a job of a newer version
        }
        if (spec.getDestination() != null) {
            return (withAccount ? spec.getDestination().getAccount() + "/" : "") + spec.getDestination().getTable();
        }
        if (job != null && !job.writes()) {
            return "(" + job.name() + ")";
        }
        var sink = spec.getSink();
        if (sink == null) {
            return "(no destination)";
        }
        var export = ExportTarget.of(spec);
        if (export.isPresent()) { // an export on a cluster: its topic is a step on the way
            return "export to " + export.get().describe();
        }
        if (sink.getType().equals("topic")) {
            return "topic " + sink.getTarget();
        }
        String account = withAccount && sink.getAccount() != null ? sink.getAccount() + "/" : "";
        return "sink " + sink.getType() + (sink.getTarget().isEmpty() ? "" : " " + account + Redaction.mask(sink.getTarget()));
    }
}
