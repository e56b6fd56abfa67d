package io.tablescan.runner;

import io.tablescan.control.ScanCanceller;
import io.tablescan.control.ScanResumer;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.util.Map;
import java.util.function.Function;

/**
 * One Kafka and one in-process pipeline (workers and ledger) for several scans of one command, such as a backup
 * set's tables: the broker or namespace and the workers start once, and the scans run through them, concurrently
 * when the caller runs them from several threads (each waits on a status reader of its own).
 *
 * <p>With a job's state ({@link #resumable}), each scan is a named stage whose spec the state records before it is
 * seeded, on an embedded broker whose data the state keeps: the same command run again after a kill or Ctrl-C
 * follows the stages its earlier run seeded instead of seeding them again, as a local job resumes its one scan.
 */
public final class PipelineSession implements AutoCloseable {
    private final EmbeddedKafkaBroker broker;
    private final PrivateNamespace namespace;
    private final KafkaSettings kafka;
    private final LocalPipeline pipeline;
    /** The job's state for a resumable session, else null. */
    private final JobState state;

    private PipelineSession(EmbeddedKafkaBroker broker, PrivateNamespace namespace, KafkaSettings kafka,
            LocalPipeline pipeline, JobState state) {
        this.broker = broker;
        this.namespace = namespace;
        this.kafka = kafka;
        this.pipeline = pipeline;
        this.state = state;
    }

    /** On {@code cluster} in a namespace of its own, or on an embedded broker when it is null. */
    public static PipelineSession start(KafkaSettings cluster, Accounts accounts, Map<String, String> env) {
        return start(cluster, null, null, accounts, env);
    }

    /**
     * On an embedded broker whose data {@code state} keeps: a rerun of the command restarts it on the same data and,
     * before any worker starts, settles the killed run's open transactions, sets this run's caps {@code limits}
     * (rows/s by direction key; null: none) on the scans it seeded, and cancels any it seeded without recording so.
     */
    public static PipelineSession resumable(JobState state, Accounts accounts, Map<String, String> env,
            Map<String, Long> limits) {
        return start(null, state, limits, accounts, env);
    }

    private static PipelineSession start(KafkaSettings cluster, JobState state, Map<String, Long> limits,
            Accounts accounts, Map<String, String> env) {
        EmbeddedKafkaBroker broker = null;
        PrivateNamespace namespace = null;
        try {
            KafkaSettings kafka;
            if (cluster != null) {
                namespace = PrivateNamespace.on(cluster);
                kafka = namespace.kafka();
            } else {
                broker = state == null ? EmbeddedKafkaBroker.start() : EmbeddedKafkaBroker.start(0, state.kafkaDir());
                kafka = KafkaSettings.inProcess(broker.bootstrapServers());
                if (state != null && state.resumable()) {
                    KilledTransactions.settle(kafka);
                    resumeStages(kafka, state, limits);
                }
            }
            LocalPipeline pipeline = LocalPipeline.start(CopyRun.settings(kafka, accounts, env));
            return new PipelineSession(broker, namespace, kafka, pipeline, state);
        } catch (RuntimeException e) {
            if (namespace != null) {
                namespace.close();
            }
            if (broker != null) {
                broker.close();
            }
            throw e;
        }
    }

    public KafkaSettings kafka() {
        return kafka;
    }

    /**
     * Stage {@code stage}'s scan: in a resumable session, the one an earlier run seeded is followed again (not
     * seeded), else {@code prepare}'s, recorded before the options' seeder seeds it. Without a state, as
     * {@link #run(ScanSpec, RunOptions)}.
     */
    public CopyRun.Outcome run(String stage, Function<KafkaSettings, ScanSpec> prepare, RunOptions options) {
        if (state == null) {
            return run(prepare.apply(kafka), options);
        }
        java.util.Optional<ScanSpec> seeded = state.stageSpec(stage);
        if (seeded.isPresent()) {
            ScanResumer.resumed(kafka, seeded.get().getScanId()); // the stopped time is not the scan's
            return run(seeded.get(), options.withSeeder((k, s) -> {}));
        }
        if (options.stop().getAsBoolean()) { // stopped before this stage began: nothing to prepare, the rerun does
            return new CopyRun.Outcome(new ScanTotals(stage, null), 0, true);
        }
        ScanSpec spec = prepare.apply(kafka);
        state.stageStarting(stage, spec);
        return run(spec, options.withSeeder(options.seeder().then(() -> state.stageSeeded(stage))));
    }

    /**
     * The workers of a resumed session go on with every scan its earlier run seeded, at once: each gets this run's
     * caps first (caps tune a run; a rerun without them reads at full speed). A scan seeded by a run killed before
     * it recorded so is cancelled: the rerun seeds that stage again, and would otherwise read it twice.
     */
    private static void resumeStages(KafkaSettings kafka, JobState state, Map<String, Long> limits) {
        for (JobState.Stage stage : state.stages()) {
            if (stage.seeded()) {
                ResumedCaps.apply(kafka, stage.spec(), limits);
            } else {
                ScanCanceller.cancel(kafka, stage.spec().getScanId());
            }
        }
    }

    /**
     * Seeds the scan with the options' seeder and follows it until it ends or the options' stop asks to stop it;
     * a stopped scan is cancelled, unless the session is resumable (its rerun follows it on). The options' state
     * and broker are not used (the session is the scan's Kafka).
     */
    public CopyRun.Outcome run(ScanSpec spec, RunOptions options) {
        long start = System.nanoTime();
        try (ScanStatusReader reader = new ScanStatusReader(kafka)) {
            if (options.stop().getAsBoolean()) {
                return new CopyRun.Outcome(new ScanTotals(spec.getScanId(), null), 0, true);
            }
            options.seeder().seed(kafka, spec);
            options.view().header(spec);
            ScanTotals totals = reader.await(spec.getScanId(), t -> t.ended() || options.stop().getAsBoolean()
                    || pipeline.failure() != null, options.timeout(), options.progressInterval(), options.progress());
            WorkerStoppedException.check(pipeline, totals.ended(), "the scan did not finish");
            boolean interrupted = !totals.ended() && options.stop().getAsBoolean();
            if (interrupted && state != null) { // kept for the rerun: the work in hand finished, waits for caps not
                totals = CopyRun.settled(pipeline, kafka, reader, totals);
            }
            if (interrupted && state == null) {
                try {
                    ScanCanceller.cancel(kafka, spec.getScanId());
                } catch (RuntimeException e) {
                    // the command ends with its Kafka (an embedded broker, or a namespace deleted): nothing left
                }
            }
            return new CopyRun.Outcome(totals, (System.nanoTime() - start) / 1e9, interrupted);
        }
    }

    @Override
    public void close() {
        try {
            pipeline.close();
        } finally {
            if (namespace != null) {
                namespace.close();
            }
            if (broker != null) {
                broker.close();
            }
        }
    }
}
