package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ExportComparer;
import io.tablescan.backup.Manifest;
import io.tablescan.backup.TopicExporter;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.JobState;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.scanner.Keys;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@code verify --from}: an export against its source table. The export's manifest and every file are checked
 * first; then stage 1 of an export of the source runs again, with the export's own selection, into a private topic
 * with as many partitions as the export's topic had, so that the rows of a PartitionKey are in the same partition
 * p on both sides; {@link ExportComparer} then compares the files {@code part-<p>-*} with partition p, one
 * partition at a time.
 */
final class ExportVerify {
    private final BackupStore from;
    private final Path report;

    ExportVerify(BackupStore from, Path report) {
        this.from = from;
        this.report = report;
    }

    int run(SourceAccountOptions sourceAccount, String sourceTable, ScanOptions scan, KafkaSettings cluster,
            Map<String, String> env, JobState local) {
        Manifest manifest = checked();
        sameSelection(scan, manifest);
        return run(manifest, new ExportComparer(from, manifest), sourceAccount, sourceTable, scan, cluster, env, local);
    }

    /**
     * Compares {@code comparer}'s rows (checked) with the source's rows that {@code manifest}'s selection selects:
     * an export's, or a backup set's view of a table.
     */
    int run(Manifest manifest, ExportComparer comparer, SourceAccountOptions sourceAccount, String sourceTable,
            ScanOptions scan, KafkaSettings cluster, Map<String, String> env, JobState local) {
        TableStore source = sourceAccount.store(new Accounts(env::get));
        Checks.tableExists(source, sourceTable, "source");
        Checks.queryAccepted(source, sourceTable, manifest.filter(), manifest.select());
        if (!sourceTable.equalsIgnoreCase(manifest.sourceTable())) { // table names are case-insensitive
            System.err.println("warning: the export in " + from.describe() + " is of table " + manifest.sourceTable()
                    + ", not of --source-table " + sourceTable + ": compared all the same");
        }
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        String sourceName = sourceAccount.name();
        Accounts accounts = new Accounts(name -> null).register(sourceName, source);
        ScanSpec draft = ScanSpecs.copy().from(new TableRef(sourceName, sourceTable)).pageSize(scan.pageSize)
                .strategy(scan.strategy).filter(manifest.filter()).select(manifest.select())
                .partitions(manifest.fromPartition(), manifest.toPartition()).build();
        String role = "verify-" + draft.getScanId();
        ProgressPrinter printer = new ProgressPrinter(System.out).hints(ProgressPrinter.Hints.local())
                .intoPrivateTopic("compared with the export in " + from.describe(), false).readsOnly();
        try (Interrupt interrupt = Interrupt.onSigint()) {
            return CopyRun.runHere(cluster, accounts, kafka -> {
                String topic = kafka.namespace().topic(role);
                ExportCommand.createTopic(kafka, topic, comparer.topicPartitions());
                return ScanSpec.newBuilder(draft).setSink(io.tablescan.sink.SinkRefs.toWire(new SinkRef(
                        TargetOptions.TOPIC, null, topic, Map.of("key", "partition")))).build();
            }, CliRun.options(printer, interrupt, env).withState(local).withCapsOf(draft), (kafka, outcome) -> {
                // the scan run: a resumed one is the first run's
                String topic = kafka.namespace().topic("verify-" + outcome.totals().scanId());
                if (outcome.interrupted() && local != null) { // its topic stays with the state, for the rerun
                    throw new UserError(UserError.INTERRUPTED, StateOptions.resumeHint(local));
                }
                try {
                    return compare(kafka, topic, outcome, comparer, printer);
                } finally {
                    ExportCommand.deleteTopic(kafka, topic);
                }
            });
        }
    }

    /** The manifest, and every file checked against it (size, SHA-256, every line, row count). */
    private Manifest checked() {
        return ImportCommand.check(from, "nothing was compared", null).manifest();
    }

    /** The export's selection is the one compared: a selection option that says otherwise is refused. */
    private static void sameSelection(ScanOptions scan, Manifest manifest) {
        if (scan.filter != null && !scan.filter.equals(manifest.filter())) {
            throw conflict("--filter", manifest.filter() == null ? "none" : "\"" + manifest.filter() + "\"");
        }
        if (scan.select != null && !scan.select.equals(manifest.select())) {
            throw conflict("--select", manifest.select() == null ? "all properties" : String.join(",", manifest.select()));
        }
        if (scan.partitionPrefix != null || scan.fromPartition != null || scan.toPartition != null) {
            String lower = scan.partitionPrefix != null ? scan.partitionPrefix : scan.fromPartition;
            String upper = scan.partitionPrefix != null ? Keys.successor(scan.partitionPrefix) : scan.toPartition;
            if (!Objects.equals(lower, manifest.fromPartition()) || !Objects.equals(upper, manifest.toPartition())) {
                throw conflict("--partition-prefix/--from-partition/--to-partition", "partitions " + (manifest.fromPartition() == null ? "from the "
                        + "first" : "from \"" + manifest.fromPartition() + "\"") + (manifest.toPartition() == null
                        ? " to the last" : " to below \"" + manifest.toPartition() + "\""));
            }
        }
    }

    private static UserError conflict(String option, String exported) {
        return new UserError(UserError.USAGE, option + " is not the export's own selection (" + exported
                + "): verify --from compares the rows the export selected; leave the option out");
    }

    /** Once the scan ended: the comparison, the differences on screen and in the report, the verdict. */
    private int compare(KafkaSettings kafka, String topic, CopyRun.Outcome outcome, ExportComparer comparer,
            ProgressPrinter printer) {
        ScanTotals totals = outcome.totals();
        if (outcome.interrupted()) {
            throw new UserError(UserError.INTERRUPTED, "interrupted: the verify did not finish ("
                    + ProgressPrinter.plural(totals.rowsRead(), "row") + " read when stopped)");
        }
        int code = printer.summary(totals);
        if (code != 0 || totals.state() != ScanState.COMPLETED) {
            System.out.println("not verified: the scan did not complete, so the export was not compared in full");
            return code == 0 ? UserError.FAILED : code;
        }
        System.out.printf("comparing the export with the source, one of %s at a time...%n",
                ProgressPrinter.plural(comparer.topicPartitions(), "partition"));
        ExportComparer.Counts[] counts = new ExportComparer.Counts[1];
        DifferenceReport found;
        try {
            TopicExporter rows = new TopicExporter(kafka, topic);
            long[] seen = {0, System.nanoTime()};
            ExportComparer.PartitionReader counted = (p, each) -> rows.read(p, json -> {
                each.accept(json);
                if (++seen[0] % 1000 == 0 && System.nanoTime() - seen[1] >= 5_000_000_000L) { // a line every 5 s
                    seen[1] = System.nanoTime();
                    System.out.printf("  %,d of %s compared%n", seen[0], ProgressPrinter.plural(totals.rowsRead(), "row"));
                }
            });
            found = DifferenceReport.collect(report, each -> counts[0] = comparer.compare(counted, totals.scanId(),
                    each));
        } catch (BackupException e) {
            throw BackupLocations.error(new BackupException(e.kind(), e.getMessage() + "; not verified"));
        }
        ExportComparer.Counts c = counts[0];
        if (c.sourceRows() != totals.rowsRead()) { // never a verdict over rows lost or doubled on the way
            System.out.printf("not verified: the topic holds %s, the scan read %,d%n",
                    ProgressPrinter.plural(c.sourceRows(), "row"), totals.rowsRead());
            return UserError.FAILED;
        }
        System.out.printf("  compared:      %s of the source, %,d of the export%n", ProgressPrinter.plural(c.sourceRows(), "row"),
                c.exportRows());
        System.out.printf("  missing:       %,d (in the source, not in the export)%n", c.missing());
        System.out.printf("  different:     %,d (in both, with other properties)%n", c.different());
        System.out.printf("  extra:         %,d (in the export, not in the source)%n", c.extra());
        Map<DifferenceKind, String> labels = new EnumMap<>(DifferenceKind.class);
        labels.put(DifferenceKind.MISSING, "missing from the export");
        labels.put(DifferenceKind.DIFFERENT, "different");
        labels.put(DifferenceKind.EXTRA, "extra in the export");
        found.printFirst(System.out, labels, Map.of(DifferenceKind.MISSING, c.missing(), DifferenceKind.DIFFERENT,
                c.different(), DifferenceKind.EXTRA, c.extra()));
        if (c.differences() == 0) {
            System.out.printf("equal: %s compared, no differences%n", ProgressPrinter.plural(c.sourceRows(), "row"));
            return 0;
        }
        System.out.printf("different: %,d missing, %,d different, %,d extra%n", c.missing(), c.different(), c.extra());
        return UserError.DIFFERENT;
    }
}
