package io.tablescan.runner;

import io.tablescan.control.ScanCanceller;
import io.tablescan.control.ScanStarter;
import io.tablescan.copy.EntityRecordHandler;
import io.tablescan.discovery.PrefixQueryHandler;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.partition.PartitionQueryHandler;
import io.tablescan.runtime.FirstItems;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A scan with the three workers and the ledger in this process: seed, follow until it ends, stop. How it runs is
 * one {@link RunOptions}; {@link #runHere} gives it a Kafka of its own, {@link #run} runs it on the given one.
 */
public final class CopyRun {
    /**
     * How long a scan's first items are handled before its broker at most (a start takes about a second): rows
     * written then have no commit point until the seed, and a rerun writes them again.
     */
    private static final Duration FIRST_ITEMS_AT_MOST = Duration.ofSeconds(5);

    private CopyRun() {}

    /**
     * {@code interrupted}: stopped by Ctrl-C before the scan ended; the scan was cancelled (kept: a local job).
     * {@code partial}: work in hand was stopped after it had written, so the destination holds more rows than the
     * totals say were written (a write cap's wait given up as this process's workers stopped).
     */
    public record Outcome(ScanTotals totals, double seconds, boolean interrupted, boolean partial) {
        public Outcome(ScanTotals totals, double seconds, boolean interrupted) {
            this(totals, seconds, interrupted, false);
        }
    }

    /**
     * As {@link #runHere(KafkaSettings, Accounts, Function, RunOptions, BiFunction)}, for {@code spec} as it is. A
     * new scan on the options' broker, which is still starting, has its first items handled meanwhile (see
     * {@link FirstItems}) and seeded as done; when they were all its items, no worker starts.
     */
    public static Outcome runHere(KafkaSettings cluster, Accounts accounts, ScanSpec spec, RunOptions options) {
        // Only the default seeder's scan (an import seeds its own items), on a broker still starting, not resumed.
        if (cluster != null || options.broker() == null || options.seeder() != RunOptions.ROOT
                || options.state() != null && options.state().resumable() || !FirstItems.possible(spec)
                || options.stop().getAsBoolean()) {
            return runHere(cluster, accounts, kafka -> spec, options, (kafka, outcome) -> outcome);
        }
        // The broker is starting: the scan's first items are handled meanwhile, and seeded once the broker is ready
        // (a Ctrl-C meanwhile takes effect after the item being handled: its writes are bounded, one page's).
        CompletableFuture<FirstItems> first = new CompletableFuture<>();
        BrokerStart broker = options.broker();
        BooleanSupplier stop = options.stop();
        long until = System.nanoTime() + FIRST_ITEMS_AT_MOST.toNanos();
        Thread handling = Thread.ofPlatform().name("first-items").daemon().start(() -> {
            try {
                first.complete(firstItems(accounts, spec, options.env(),
                        () -> !broker.ready() && !stop.getAsBoolean() && System.nanoTime() - until < 0));
            } catch (Throwable e) {
                first.completeExceptionally(e);
            }
        });
        try {
            return runHere(null, accounts, kafka -> spec, options.withSeeder(new RunOptions.Seeder() {
                @Override
                public void seed(KafkaSettings kafka, ScanSpec s) {
                    ScanStarter.start(kafka, s, handled(first));
                }

                @Override
                public boolean leavesItems() {
                    return !handled(first).all();
                }
            }), (kafka, outcome) -> outcome);
        } finally {
            try {
                handling.join(); // stopped before its seed: its writes end before the command does
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static FirstItems handled(CompletableFuture<FirstItems> first) {
        try {
            return first.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /**
     * The scan's first items (see {@link FirstItems}), handled with the pipeline's settings while {@code more} says
     * so. Their Kafka settings give names and serializers only, with no broker yet: nothing contacts it (a scan with
     * a topic sink or a rate cap is not handled so).
     */
    private static FirstItems firstItems(Accounts accounts, ScanSpec spec, Map<String, String> env,
            BooleanSupplier more) {
        WorkerSettings settings = settings(KafkaSettings.inProcess("127.0.0.1:0"), accounts, env);
        EntityRecordHandler writer = new EntityRecordHandler(settings);
        try {
            FirstItems first = FirstItems.handle(settings.kafka(), spec, new PrefixQueryHandler(settings),
                    new PartitionQueryHandler(settings), writer, more);
            Timeline.mark("first items");
            return first;
        } finally {
            writer.close();
        }
    }

    /**
     * Runs the scan on {@code cluster} in a namespace of its own (no other scan's items, and its items for no
     * other worker), or on an embedded broker when {@code cluster} is null (the options' broker when given, see
     * {@link BrokerStart}): either way, the scan's record ends with the command, unless the options give a local
     * job's state ({@link RunOptions#state()}): then it stays until the scan ends, for a rerun to resume. The spec is made by
     * {@code prepare} on the Kafka the scan runs on (an export names its topic in the scan's namespace and creates
     * it), and {@code after} runs once the scan ended, while that Kafka is still there (an export's second stage
     * reads the topic).
     */
    public static <T> T runHere(KafkaSettings cluster, Accounts accounts, Function<KafkaSettings, ScanSpec> prepare,
            RunOptions options, BiFunction<KafkaSettings, Outcome, T> after) {
        if (cluster != null) {
            try (PrivateNamespace own = PrivateNamespace.on(cluster)) {
                return after.apply(own.kafka(), run(settings(own.kafka(), accounts, options.env()),
                        prepare.apply(own.kafka()), options));
            } finally {
                Timeline.mark("namespace deleted");
                Timeline.log();
            }
        }
        if (options.state() != null) { // a local job kept for a rerun: see LocalJobRun
            return LocalJobRun.run(accounts, prepare, options, after);
        }
        try (EmbeddedKafkaBroker broker = options.broker() != null ? options.broker().take()
                : EmbeddedKafkaBroker.start()) {
            Timeline.mark("broker");
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            return after.apply(kafka, run(settings(kafka, accounts, options.env()), prepare.apply(kafka), options));
        } finally {
            Timeline.mark("broker stop");
            Timeline.log();
        }
    }

    /**
     * The in-process workers' settings on {@code kafka}, with the sink plugins and injected faults of {@code env}
     * ({@link RunOptions#env()}).
     */
    public static WorkerSettings settings(KafkaSettings kafka, Accounts accounts, Map<String, String> env) {
        try {
            return WorkerSettings.local(kafka, accounts).withPlugins(SinkPlugins.fromEnvironment(env))
                    .withFaults(FaultInjectingTableStore.Faults.fromEnvironment(env));
        } catch (IllegalArgumentException e) {
            throw new RunSettingsException(e.getMessage());
        }
    }

    /**
     * Seeds, then calls the options' progress with the scan's totals every interval until it ends or the options'
     * stop asks to stop it. A stopped scan is cancelled before the workers stop, so that workers elsewhere on the
     * same cluster skip its items instead of going on with a copy nobody follows.
     */
    public static Outcome run(WorkerSettings settings, ScanSpec spec, RunOptions options) {
        KafkaSettings kafka = settings.kafka();
        BooleanSupplier stop = options.stop();
        if (stop.getAsBoolean()) {
            return new Outcome(new ScanTotals(spec.getScanId(), null), 0, true);
        }
        try (LocalPipeline pipeline = LocalPipeline.start(settings, true,
                        // a run that records the classes for the next ones starts the workers all the same: a long
                        // copy would otherwise load theirs from the jar at every run
                        () -> options.seeder().leavesItems() || ClassArchive.recording());
                MetricsServer metrics = metricsServer(pipeline); // null when not asked for
                ScanStatusReader reader = new ScanStatusReader(kafka)) {
            long start = System.nanoTime();
            if (stop.getAsBoolean()) {
                return new Outcome(new ScanTotals(spec.getScanId(), null), 0, true);
            }
            Timeline.mark("pipeline");
            options.seeder().seed(kafka, spec);
            Timeline.mark("seed");
            options.view().header(spec);
            ScanTotals totals = reader.await(spec.getScanId(), t -> t.ended() || stop.getAsBoolean()
                    || pipeline.failure() != null, options.timeout(),
                    options.progressInterval(), options.progress());
            Timeline.mark("scan");
            WorkerStoppedException.check(pipeline, totals.ended(), options.state() != null
                    ? "run the same command again to resume the job" : "the scan did not finish");
            boolean interrupted = !totals.ended() && stop.getAsBoolean();
            if (interrupted && options.state() != null) { // a local job's scan stays as it is, for a rerun to resume
                options.view().pausing();
                totals = settled(pipeline, kafka, reader, totals);
                return new Outcome(totals, (System.nanoTime() - start) / 1e9, true);
            }
            if (interrupted) {
                options.view().stopping();
                try {
                    ScanCanceller.cancel(kafka, spec.getScanId());
                } catch (RuntimeException e) { // the copy still stops; say what is left to do by hand
                    System.err.println("tablescan: could not cancel scan " + spec.getScanId() + " ("
                            + e.getClass().getSimpleName() + "): on a cluster, run `tablescan cancel "
                            + spec.getScanId() + " --kafka " + kafka.bootstrapServers() + "`");
                }
                totals = settled(pipeline, kafka, reader, totals);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (options.ended() != null && totals.ended() && !interrupted) {
                options.ended().read(kafka, totals);
            }
            return new Outcome(totals, seconds, interrupted, interrupted && pipeline.stoppedAfterWriting());
        }
    }

    /**
     * The totals of a scan stopped by Ctrl-C as they are once this process's workers stopped: what they did is
     * committed by then (the work in hand finished, see {@link LocalPipeline#stopWorkers}), and the ledger is given
     * up to {@link LedgerCatchUp#AT_MOST} to fold it, so the rows printed and saved are the rows done; {@code seen}
     * when the ledger has no record of the scan.
     */
    static ScanTotals settled(LocalPipeline pipeline, KafkaSettings kafka, ScanStatusReader reader,
            ScanTotals seen) {
        pipeline.stopWorkers();
        Timeline.mark("workers stop");
        if (!LedgerCatchUp.await(kafka, seen.scanId(), LedgerCatchUp.AT_MOST)) {
            System.err.println("tablescan: the ledger had not counted everything the workers did within "
                    + LedgerCatchUp.AT_MOST.toSeconds() + " s: the rows said done may be short of the rows done");
        }
        Timeline.mark("ledger caught up");
        ScanTotals latest = reader.latest(seen.scanId());
        return latest.started() ? latest : seen;
    }

    /** Metrics and health of a local copy only when asked for with TABLESCAN_METRICS_PORT (workers: always). */
    private static MetricsServer metricsServer(LocalPipeline pipeline) {
        if (!System.getenv().containsKey(MetricsServer.PORT)) {
            return null;
        }
        try {
            return MetricsServer.fromEnvironment(System.getenv(), pipeline).orElse(null);
        } catch (IllegalArgumentException e) {
            throw new RunSettingsException(e.getMessage());
        }
    }
}
