package io.tablescan.cli;

import io.tablescan.control.Throttle;
import io.tablescan.job.Jobs;
import io.tablescan.rate.Direction;
import io.tablescan.rate.ScanRates;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows one scan's state, rows copied, rows/s, open items and failures as the ledger recorded "
                + "them; without SCAN_ID, a table of recent scans.")
final class StatusCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCAN_ID",
            description = "The scan, as start and copy printed it (default: list recent scans).")
    String scanId;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--watch", description = "Show live progress until the scan ends; then exit like copy "
            + "(0 completed, 1 failures, 5 cancelled).")
    boolean watch;

    @Mixin
    WaitOptions wait = new WaitOptions();

    @Option(names = "--limit", defaultValue = "20", description = "Scans in the table (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new UserError(UserError.USAGE, "--limit must be at least 1");
        }
        if (scanId == null && watch) {
            throw new UserError(UserError.USAGE, "--watch needs a SCAN_ID");
        }
        wait.only(watch, "--watch");
        KafkaSettings kafka = cluster.settings();
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            if (scanId == null) {
                List<ScanTotals> all = reader.all();
                if (all.isEmpty()) {
                    System.out.println("no scans in namespace " + kafka.namespace().name()
                            + elsewhere(reader.otherNamespaces()));
                    return 0;
                }
                table(all);
                return 0;
            }
            ProgressPrinter printer = new ProgressPrinter(System.out)
                    .hints(ProgressPrinter.Hints.cluster(kafka.bootstrapServers()));
            ScanTotals t = watch ? knownOrStarted(reader, scanId) : known(reader, scanId);
            if (t.spec() != null) {
                likeItsCommand(printer, t.spec());
            }
            if (!watch) {
                differences(kafka, printer, t).summary(t);
                ClusterExport.filesLine(kafka, t, System.getenv()).ifPresent(System.out::println);
                caps(kafka, t);
                return 0;
            }
            ScanTotals ended = wait.await(reader, scanId, ScanTotals::ended, printer);
            int code = differences(kafka, printer, ended).summary(ended);
            ClusterExport.filesLine(kafka, ended, System.getenv()).ifPresent(System.out::println);
            return code;
        }
    }

    /** The lines and summary of the command that runs such a job: an import's name its files, an export's its target. */
    static void likeItsCommand(ProgressPrinter printer, io.tablescan.schema.ScanSpec spec) {
        String from = spec.getJob() == null ? null : spec.getJob().getOptions().get(ClusterImport.FROM);
        if (from != null) {
            printer.fromFiles(from);
            return;
        }
        io.tablescan.backup.ExportTarget.of(spec)
                .ifPresent(target -> printer.intoPrivateTopic("export to " + target.describe(), true));
    }

    /** An ended verify's or mirror's first differences, for its summary as the command that ran it printed it. */
    static ProgressPrinter differences(KafkaSettings kafka, ProgressPrinter printer, ScanTotals t) {
        if (t.ended() && t.spec() != null && Jobs.of(t.spec()).readsDestination()) {
            printer.differences(DifferenceReport.read(kafka, t.scanId(), null));
        }
        return printer;
    }

    /**
     * For commands that wait: a scan the ledger has not recorded yet but whose start is in the events topic (a
     * ledger that is starting or catching up) is waited for, not unknown.
     */
    static ScanTotals knownOrStarted(ScanStatusReader reader, String scanId) {
        try {
            return known(reader, scanId);
        } catch (UserError e) {
            if (e.exitCode() == UserError.NOT_FOUND && reader.hasEvents(scanId)) {
                return new ScanTotals(scanId, null);
            }
            throw e;
        }
    }

    /** The scan's status, or a clear "not found". */
    static ScanTotals known(ScanStatusReader reader, String scanId) {
        // Whatever was typed is repeated only when it has a scan id's shape (never a pasted secret).
        String shown = scanId.matches("[A-Za-z0-9._-]{1,64}") ? scanId : "with that id";
        ScanTotals t;
        try {
            t = reader.latest(scanId);
        } catch (ScanStatusReader.NoLedgerTopicException e) {
            // A fresh cluster, or the wrong one: no scan has ever been started there, so this id is unknown.
            List<String> others = reader.otherNamespaces();
            throw new UserError(UserError.NOT_FOUND, "no scan " + shown + (others.isEmpty()
                    ? ": this Kafka cluster has no scans at all (wrong --kafka, or no scan started yet)"
                    : ": this namespace has no scans" + elsewhere(others)));
        }
        if (!t.started()) {
            throw new UserError(UserError.NOT_FOUND, "no scan " + shown + " in the ledger (wrong id, or no ledger running?)");
        }
        return t;
    }

    /** "; scans are in namespace(s) a, b (TABLESCAN_NAMESPACE picks one)", or nothing when no other has any. */
    static String elsewhere(List<String> others) {
        return others.isEmpty() ? "" : "; scans are in namespace" + (others.size() > 1 ? "s " : " ")
                + String.join(", ", others) + " (" + io.tablescan.runtime.Namespace.VARIABLE + " picks one)";
    }

    /** A capped or throttled scan's caps now beside its rate. */
    private static void caps(KafkaSettings kafka, ScanTotals t) {
        if (t.spec() == null) {
            return;
        }
        Map<String, Long> caps = Throttle.current(kafka, t.spec());
        if (ScanRates.capped(t.spec()) || caps.values().stream().anyMatch(cap -> cap > 0)) {
            // an ended scan's rate is its average (as its summary says), a running one's the recent rate
            System.out.printf("  rate cap:      %s; %s %,.0f rows/s, %,d throttled requests%n",
                    RateOptions.describe(caps.get(Direction.READ.key), caps.get(Direction.WRITE.key)),
                    t.ended() ? "average" : "now", t.rowsPerSecond(), t.throttles());
        }
    }

    private void table(List<ScanTotals> scans) {
        System.out.printf("%-36s  %-23s  %-19s  %12s  %9s  %6s  %6s  %s%n", "SCAN", "STATE", "STARTED", "ROWS", "ROWS/S",
                "OPEN", "FAILED", "SOURCE -> DESTINATION");
        for (ScanTotals t : scans.subList(0, Math.min(limit, scans.size()))) {
            var spec = t.spec();
            System.out.printf("%-36s  %-23s  %-19s  %,12d  %,9.0f  %,6d  %,6d  %s -> %s%n", t.scanId(), t.state(),
                    TIME.format(Instant.ofEpochMilli(t.status().getStartMillis())), t.rowsCopied(), t.rowsPerSecond(),
                    t.openItems(), t.itemsFailed(), spec == null ? "?" : spec.getSource().getTable(),
                    spec == null ? "-" : ProgressPrinter.target(spec, false));
        }
    }
}
