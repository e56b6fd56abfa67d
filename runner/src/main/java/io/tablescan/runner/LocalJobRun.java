package io.tablescan.runner;

import io.tablescan.control.ScanResumer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A local job on an embedded broker whose data is kept in the job's state folder ({@link JobState}): the first run
 * records the scan and seeds it; a rerun after a kill, Ctrl-C or a reboot restarts the broker on the same data and
 * follows the same scan to its end without seeding again (the workers go on from their committed offsets, the
 * ledger restores its store from its changelog). The state goes once the scan ended, or when it never was seeded.
 */
final class LocalJobRun {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    private LocalJobRun() {}

    static <T> T run(Accounts accounts, Function<KafkaSettings, ScanSpec> prepare, RunOptions options,
            BiFunction<KafkaSettings, CopyRun.Outcome, T> after) {
        JobState state = options.state();
        boolean ended = false;
        try (EmbeddedKafkaBroker broker = options.broker() != null ? options.broker().take()
                : EmbeddedKafkaBroker.start(0, state.kafkaDir())) {
            Timeline.mark("broker");
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            WorkerSettings settings = CopyRun.settings(kafka, accounts, options.env());
            RunOptions run = options.withProgress(options.progressInterval(), recording(state, options.progress()));
            ScanSpec spec;
            if (state.resumable()) {
                spec = state.spec();
                run = run.withSeeder((k, s) -> {}); // seeded by the first run: followed, not seeded again
                options.view().resuming(resumeLine(spec, state));
                KilledTransactions.settle(kafka); // before any worker reads what the killed run wrote
                ScanResumer.resumed(kafka, spec.getScanId()); // the stopped time is not the scan's
                String caps = options.limits() == null ? null : ResumedCaps.apply(kafka, spec, options.limits());
                if (caps != null) {
                    options.view().resuming(caps);
                }
                Timeline.mark("transactions");
            } else {
                state.startedOver().ifPresent(options.view()::resuming);
                spec = prepare.apply(kafka);
                state.starting(spec);
                run = run.withSeeder(options.seeder().then(state::seeded));
            }
            CopyRun.Outcome outcome = CopyRun.run(settings, spec, run);
            ended = !outcome.interrupted();
            if (outcome.interrupted() && outcome.totals().started()) { // counted once the workers stopped
                state.progress(outcome.totals().rowsCopied());
            }
            return after.apply(kafka, outcome);
        } finally {
            Timeline.mark("broker stop");
            if (ended || !state.resumable()) {
                state.finish();
            } else {
                state.close();
            }
            Timeline.mark("state");
            Timeline.log();
        }
    }

    /**
     * Passes the totals on to {@code progress}, recording the rows done as its lines count them (a copy's rows
     * written, a count's rows read): a copy reads its rows well before it has written them.
     */
    static Consumer<ScanTotals> recording(JobState state, Consumer<ScanTotals> progress) {
        return totals -> {
            state.progress(totals.rowsCopied());
            progress.accept(totals);
        };
    }

    /**
     * "resuming scan S: N rows already done (started T)", N as the last run last recorded it (the ledger's own
     * count may still hold an aborted transaction's events until the killed run's transactions expire).
     */
    private static String resumeLine(ScanSpec spec, JobState state) {
        return String.format("resuming scan %s: %,d rows already done (started %s)", spec.getScanId(), state.rows(),
                WHEN.format(state.started()));
    }
}
