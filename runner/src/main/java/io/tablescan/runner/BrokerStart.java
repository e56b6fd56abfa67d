package io.tablescan.runner;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.admin.Admin;

/**
 * An embedded broker starting on a thread of its own, and the pipeline's topics created on it, while the command
 * checks its source and destination (the checks wait on the network, the start mostly on the CPU): the broker is
 * taken once the checks pass, and closed when they fail, or when the JVM exits before it was taken (Ctrl-C during
 * the checks), so that neither the broker nor its data directory outlives the command.
 */
public final class BrokerStart implements AutoCloseable {
    private final CompletableFuture<EmbeddedKafkaBroker> broker = new CompletableFuture<>();
    private final Thread closeOnExit = new Thread(this::close, "kafka-start-close");
    private boolean taken;

    private BrokerStart() {}

    /** Starts an embedded broker now, in the background. */
    public static BrokerStart begin() {
        return begin(null);
    }

    /** As {@link #begin()}, on data directory {@code dir} (a local job's state, kept), or null: a temporary one. */
    public static BrokerStart begin(java.nio.file.Path dir) {
        BrokerStart start = new BrokerStart();
        Runtime.getRuntime().addShutdownHook(start.closeOnExit);
        Thread.ofPlatform().name("kafka-start").daemon().start(() -> {
            try {
                EmbeddedKafkaBroker started = EmbeddedKafkaBroker.start(0, dir);
                createTopics(started);
                start.broker.complete(started);
            } catch (Throwable e) {
                start.broker.completeExceptionally(e);
            }
        });
        return start;
    }

    /**
     * The pipeline's topics, created while the checks still run (the pipeline finds them there, and waits for their
     * partitions while its workers start); when this fails, the pipeline creates them and says why.
     */
    private static void createTopics(EmbeddedKafkaBroker broker) {
        KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
        try (Admin admin = kafka.newAdmin()) {
            Topics.createLocal(admin, kafka.namespace(), Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            // left to the pipeline's own creation
        }
    }

    /** Whether the start has ended (started or failed): {@link #take} will not wait. */
    public boolean ready() {
        return broker.isDone();
    }

    /** The started broker, the caller's to close from now on; waits for its start. */
    public synchronized EmbeddedKafkaBroker take() {
        forgetHook();
        taken = true;
        try {
            return broker.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** Closes the broker unless it was taken, after its start ended (a start cannot be cut short). */
    @Override
    public synchronized void close() {
        if (taken) {
            return;
        }
        taken = true;
        forgetHook();
        try {
            broker.join().close();
        } catch (CompletionException e) {
            // it never started: nothing to close
        }
    }

    private void forgetHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(closeOnExit);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // the JVM is exiting (this may be the hook), or the hook is gone already
        }
    }
}
