package io.tablescan.runner;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The namespace of one in-process {@code copy --kafka} on a shared cluster. Its workers resolve the aliases
 * {@code source} and {@code destination} with this copy's own credentials, so they must never take another
 * scan's items, and the cluster's workers must never take theirs: a namespace of its own keeps both apart.
 * When the copy ends, its topics, consumer groups and the ledger's internal topics are deleted (transactional
 * ids cannot be: the broker expires them).
 */
final class PrivateNamespace implements AutoCloseable {
    private static final Duration CLEAN_UP_WITHIN = Duration.ofSeconds(30);

    private final KafkaSettings kafka;

    private PrivateNamespace(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    /** A fresh namespace under the cluster settings' own (TABLESCAN_NAMESPACE), so prefix ACLs still apply. */
    static PrivateNamespace on(KafkaSettings cluster) {
        return new PrivateNamespace(cluster.withNamespace(cluster.namespace().privateCopy()));
    }

    KafkaSettings kafka() {
        return kafka;
    }

    /** Deletes what the copy created; a failure is one warning line, never a failed copy. */
    @Override
    public void close() {
        Namespace namespace = kafka.namespace();
        try (Admin admin = kafka.newAdmin()) {
            deleteGroups(admin, namespace);
            List<String> topics = admin.listTopics().names().get(CLEAN_UP_WITHIN.toSeconds(), TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(namespace.name() + ".") || t.startsWith(namespace.ledger() + "-")).toList();
            try {
                admin.deleteTopics(topics).all().get(CLEAN_UP_WITHIN.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        } catch (ExecutionException e) {
            warn(namespace, e.getCause().getMessage());
        } catch (TimeoutException | RuntimeException e) {
            warn(namespace, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            warn(namespace, "interrupted");
        }
    }

    /**
     * The namespace is random, so every group under it is this copy's: the workers' groups and the ledger's. A
     * member that has just left may still be counted for a moment (GroupNotEmpty): asked again until the deadline.
     */
    private static void deleteGroups(Admin admin, Namespace namespace)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + CLEAN_UP_WITHIN.toNanos();
        while (true) {
            List<String> groups = admin.listGroups().all().get(CLEAN_UP_WITHIN.toSeconds(), TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).filter(g -> g.startsWith(namespace.name() + "-")).toList();
            try {
                admin.deleteConsumerGroups(groups).all().get(CLEAN_UP_WITHIN.toSeconds(), TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                boolean passing = e.getCause() instanceof GroupNotEmptyException // a member still leaving
                        || e.getCause() instanceof GroupIdNotFoundException; // gone meanwhile: list again
                if (!passing || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200); // backoff before asking again, not synchronisation
            }
        }
    }

    private static void warn(Namespace namespace, String reason) {
        System.err.println("tablescan: warning: could not remove this copy's topics and consumer groups (" + namespace
                + ".* and " + namespace + "-*): " + reason);
    }
}
