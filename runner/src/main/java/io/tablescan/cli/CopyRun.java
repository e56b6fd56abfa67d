package io.tablescan.cli;

import io.tablescan.control.ScanCanceller;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.SinkPlugins;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.table.FaultInjectingTableStore;
import java.time.Duration;
import java.util.Map;

/** A copy with the three workers and the ledger in this process: seed, follow until it ends, stop. */
public final class CopyRun {
    private CopyRun() {}

    /** {@code interrupted}: stopped by Ctrl-C before the scan ended; the scan was cancelled. */
    public record Outcome(ScanTotals totals, double seconds, boolean interrupted) {}

    /** Seeds a scan on the Kafka it runs on: {@link ScanStarter#start} (its root item), or an import's batches. */
    @FunctionalInterface
    public interface Seeder {
        void seed(KafkaSettings kafka, ScanSpec spec);
    }

    /** What a command reads of the scan's Kafka once it has ended, before its broker or namespace goes. */
    @FunctionalInterface
    interface Ended {
        void read(KafkaSettings kafka, ScanTotals totals);
    }

    static Outcome runHere(KafkaSettings cluster, Accounts accounts, Map<String, String> env, ScanSpec spec,
            ProgressPrinter printer, Interrupt interrupt) {
        return runHere(cluster, accounts, env, spec, printer, interrupt, null);
    }

    /**
     * Runs the scan on {@code cluster} in a namespace of its own (no other scan's items, and its items for no
     * other worker), or on an embedded broker when {@code cluster} is null: either way, the scan's record ends
     * with the command.
     */
    static Outcome runHere(KafkaSettings cluster, Accounts accounts, Map<String, String> env, ScanSpec spec,
            ProgressPrinter printer, Interrupt interrupt, Ended ended) {
        return runHere(cluster, null, accounts, env, spec, printer, interrupt, ended);
    }

    /** As above, on the broker {@code started} when given (an embedded one started early, see {@link BrokerStart}). */
    static Outcome runHere(KafkaSettings cluster, BrokerStart started, Accounts accounts, Map<String, String> env,
            ScanSpec spec, ProgressPrinter printer, Interrupt interrupt, Ended ended) {
        if (cluster != null) {
            try (PrivateNamespace own = PrivateNamespace.on(cluster)) {
                return run(own.kafka(), accounts, env, spec, printer, Duration.ofDays(7), interrupt, ended);
            } finally {
                Timeline.mark("namespace deleted");
                Timeline.log();
            }
        }
        try (EmbeddedKafkaBroker broker = started != null ? started.take() : EmbeddedKafkaBroker.start()) {
            Timeline.mark("broker");
            return run(KafkaSettings.inProcess(broker.bootstrapServers()), accounts, env, spec, printer, Duration.ofDays(7),
                    interrupt, ended);
        } finally {
            Timeline.mark("broker stop");
            Timeline.log();
        }
    }

    /**
     * As above, with the spec made by {@code prepare} on the Kafka the scan runs on (an export names its topic in
     * the scan's namespace and creates it), seeded by {@code seeder}, and a step {@code after} the scan ended,
     * while that Kafka is still there (an export's second stage reads the topic).
     */
    static <T> T runHere(KafkaSettings cluster, Accounts accounts, Map<String, String> env,
            java.util.function.Function<KafkaSettings, ScanSpec> prepare, Seeder seeder, ProgressPrinter printer,
            Interrupt interrupt, java.util.function.BiFunction<KafkaSettings, Outcome, T> after) {
        if (cluster != null) {
            try (PrivateNamespace own = PrivateNamespace.on(cluster)) {
                return after.apply(own.kafka(), run(own.kafka(), accounts, env, prepare.apply(own.kafka()), printer,
                        Duration.ofDays(7), interrupt, seeder, null));
            }
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            return after.apply(kafka, run(kafka, accounts, env, prepare.apply(kafka), printer, Duration.ofDays(7),
                    interrupt, seeder, null));
        }
    }

    static Outcome run(String bootstrapServers, Accounts accounts, ScanSpec spec, ProgressPrinter printer,
            Duration timeout) {
        return run(KafkaSettings.of(bootstrapServers), accounts, System.getenv(), spec, printer, timeout,
                Interrupt.never());
    }

    /**
     * {@code env}: the settings of the in-process workers that a user sets for a local copy too: the sink plugins
     * ({@code TABLESCAN_PLUGINS}) and injected faults ({@code TABLESCAN_FAULT_RATE}, to watch retries at work).
     */
    static Outcome run(KafkaSettings kafka, Accounts accounts, Map<String, String> env, ScanSpec spec,
            ProgressPrinter printer, Duration timeout, Interrupt interrupt) {
        return run(kafka, accounts, env, spec, printer, timeout, interrupt, null);
    }

    static Outcome run(KafkaSettings kafka, Accounts accounts, Map<String, String> env, ScanSpec spec,
            ProgressPrinter printer, Duration timeout, Interrupt interrupt, Ended ended) {
        return run(kafka, accounts, env, spec, printer, timeout, interrupt, ScanStarter::start, ended);
    }

    static Outcome run(KafkaSettings kafka, Accounts accounts, Map<String, String> env, ScanSpec spec,
            ProgressPrinter printer, Duration timeout, Interrupt interrupt, Seeder seeder, Ended ended) {
        WorkerSettings settings;
        try {
            settings = WorkerSettings.local(kafka, accounts).withPlugins(SinkPlugins.fromEnvironment(env))
                    .withFaults(FaultInjectingTableStore.Faults.fromEnvironment(env));
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        return run(settings, spec, printer, timeout, printer.interval(), printer::progress, interrupt, seeder, ended);
    }

    static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout) {
        return run(settings, spec, printer, timeout, printer.interval(), printer::progress);
    }

    public static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout,
            Duration interval, java.util.function.Consumer<ScanTotals> each) {
        return run(settings, spec, printer, timeout, interval, each, Interrupt.never());
    }

    /**
     * Seeds, then calls {@code each} with the scan's totals every {@code interval} until it ends or Ctrl-C
     * interrupts it. An interrupted scan is cancelled before the workers stop, so that workers elsewhere on the
     * same cluster skip its items instead of going on with a copy nobody follows.
     */
    static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout,
            Duration interval, java.util.function.Consumer<ScanTotals> each, Interrupt interrupt) {
        return run(settings, spec, printer, timeout, interval, each, interrupt, null);
    }

    static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout,
            Duration interval, java.util.function.Consumer<ScanTotals> each, Interrupt interrupt, Ended ended) {
        return run(settings, spec, printer, timeout, interval, each, interrupt, ScanStarter::start, ended);
    }

    /** As above, seeded by {@code seeder} (the bench's import). */
    public static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout,
            Duration interval, java.util.function.Consumer<ScanTotals> each, Seeder seeder) {
        return run(settings, spec, printer, timeout, interval, each, Interrupt.never(), seeder, null);
    }

    static Outcome run(WorkerSettings settings, ScanSpec spec, ProgressPrinter printer, Duration timeout,
            Duration interval, java.util.function.Consumer<ScanTotals> each, Interrupt interrupt, Seeder seeder,
            Ended ended) {
        KafkaSettings kafka = settings.kafka();
        if (interrupt.requested()) {
            return new Outcome(new ScanTotals(spec.getScanId(), null), 0, true);
        }
        try (LocalPipeline pipeline = LocalPipeline.start(settings);
                MetricsServer metrics = metricsServer(pipeline); // null when not asked for
                ScanStatusReader reader = new ScanStatusReader(kafka)) {
            long start = System.nanoTime();
            if (interrupt.requested()) {
                return new Outcome(new ScanTotals(spec.getScanId(), null), 0, true);
            }
            Timeline.mark("pipeline");
            seeder.seed(kafka, spec);
            Timeline.mark("seed");
            printer.progressHeader(spec);
            ScanTotals totals = reader.await(spec.getScanId(), t -> t.ended() || interrupt.requested(), timeout,
                    interval, each);
            Timeline.mark("scan");
            boolean interrupted = !totals.ended() && interrupt.requested();
            if (interrupted) {
                printer.endLine();
                printer.stopping();
                try {
                    ScanCanceller.cancel(kafka, spec.getScanId());
                } catch (RuntimeException e) { // the copy still stops; say what is left to do by hand
                    System.err.println("tablescan: could not cancel scan " + spec.getScanId() + " ("
                            + e.getClass().getSimpleName() + "): on a cluster, run `tablescan cancel "
                            + spec.getScanId() + " --kafka " + kafka.bootstrapServers() + "`");
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (ended != null && totals.ended() && !interrupted) {
                ended.read(kafka, totals);
            }
            return new Outcome(totals, seconds, interrupted);
        }
    }

    /** Metrics and health of a local copy only when asked for with TABLESCAN_METRICS_PORT (workers: always). */
    private static MetricsServer metricsServer(LocalPipeline pipeline) {
        if (!System.getenv().containsKey(MetricsServer.PORT)) {
            return null;
        }
        try {
            return MetricsServer.fromEnvironment(System.getenv(), pipeline).orElse(null);
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }
}
