package io.tablescan.runner;

import io.tablescan.control.ScanCanceller;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.util.Map;

/**
 * One Kafka and one in-process pipeline (workers and ledger) for several scans of one command, such as a backup
 * set's tables: the broker or namespace and the workers start once, and the scans run through them, concurrently
 * when the caller runs them from several threads (each waits on a status reader of its own).
 */
public final class PipelineSession implements AutoCloseable {
    private final EmbeddedKafkaBroker broker;
    private final PrivateNamespace namespace;
    private final KafkaSettings kafka;
    private final LocalPipeline pipeline;

    private PipelineSession(EmbeddedKafkaBroker broker, PrivateNamespace namespace, KafkaSettings kafka,
            LocalPipeline pipeline) {
        this.broker = broker;
        this.namespace = namespace;
        this.kafka = kafka;
        this.pipeline = pipeline;
    }

    /** On {@code cluster} in a namespace of its own, or on an embedded broker when it is null. */
    public static PipelineSession start(KafkaSettings cluster, Accounts accounts, Map<String, String> env) {
        EmbeddedKafkaBroker broker = null;
        PrivateNamespace namespace = null;
        try {
            KafkaSettings kafka;
            if (cluster != null) {
                namespace = PrivateNamespace.on(cluster);
                kafka = namespace.kafka();
            } else {
                broker = EmbeddedKafkaBroker.start();
                kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            }
            LocalPipeline pipeline = LocalPipeline.start(CopyRun.settings(kafka, accounts, env));
            return new PipelineSession(broker, namespace, kafka, pipeline);
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
     * Seeds the scan with the options' seeder and follows it until it ends or the options' stop asks to stop it;
     * a stopped scan is cancelled. The options' state and broker are not used (the session is the scan's Kafka).
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
            if (interrupted) {
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
