package io.tablescan.runtime;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's input partitions and each one's {@link PartitionProgress}: what to commit, where to rewind to,
 * and which to pause. Only the loop thread changes it; record threads only ask whether their progress is
 * still the current one (a rewind or a rebalance replaces it, and work of a replaced one is abandoned).
 */
final class AssignedPartitions {
    private static final Logger LOG = LoggerFactory.getLogger(AssignedPartitions.class);
    /** How often a partition's committed offset is asked for (a minute each) before the worker gives up. */
    private static final int COMMITTED_ATTEMPTS = 5;

    private final Consumer<byte[], byte[]> consumer;
    private final Map<TopicPartition, PartitionProgress> progress = new ConcurrentHashMap<>();
    private Set<TopicPartition> paused = new HashSet<>();

    AssignedPartitions(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    /** A partition's progress, read from the group's commit the first time it is seen. */
    PartitionProgress get(TopicPartition tp) {
        PartitionProgress partition = progress.get(tp);
        if (partition == null) {
            load(Set.of(tp)); // assigned without a callback (a manual assignment, a mock)
            partition = progress.get(tp);
        }
        return partition;
    }

    boolean current(TopicPartition tp, PartitionProgress partition) {
        return progress.get(tp) == partition;
    }

    int inFlight() {
        int sum = 0;
        for (PartitionProgress p : progress.values()) {
            sum += p.inFlight();
        }
        return sum;
    }

    /** Whether a partition's offset or metadata moved since the last commit. */
    boolean changed() {
        for (PartitionProgress p : progress.values()) {
            if (p.changed()) {
                return true;
            }
        }
        return false;
    }

    /** The offsets (and metadata) that moved since the last commit. */
    Map<TopicPartition, OffsetAndMetadata> toCommit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        progress.forEach((tp, partition) -> {
            if (partition.changed()) {
                offsets.put(tp, partition.toCommit());
            }
        });
        return offsets;
    }

    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, commit) -> progress.get(tp).committed(commit));
    }

    /** After an abort: forgets uncommitted work and fetches every partition again from its committed offset. */
    void rewind() {
        progress.replaceAll((tp, partition) -> {
            if (partition.committedOffset() >= 0) {
                consumer.seek(tp, partition.committedOffset());
            }
            return partition.rewound();
        });
    }

    /** Each partition's committed offset and the finished records its metadata names. */
    void load(Collection<TopicPartition> partitions) {
        Set<TopicPartition> set = new HashSet<>(partitions);
        Map<TopicPartition, OffsetAndMetadata> committed = null;
        for (int attempt = 1; committed == null; attempt++) {
            try {
                committed = consumer.committed(set);
            } catch (WakeupException | TimeoutException e) {
                // A finished record's wakeup is no reason to skip this; nor is a slow answer: the broker holds it
                // back while a killed worker's transaction is open (until it times out), which a loaded broker,
                // just restarted, can take a minute to resolve.
                if (attempt >= COMMITTED_ATTEMPTS) {
                    throw e;
                }
                if (e instanceof TimeoutException) {
                    LOG.warn("the committed offsets of {} are not known yet (a transaction still open?): asking again",
                            set);
                }
            }
        }
        for (TopicPartition tp : set) {
            progress.put(tp, new PartitionProgress(committed.get(tp)));
        }
    }

    void remove(Collection<TopicPartition> partitions) {
        partitions.forEach(progress::remove);
        paused.removeAll(partitions);
    }

    /**
     * Fetches no more for a partition too far ahead of its oldest unfinished record. (Too much in hand overall
     * is handled by not polling: pausing drops what the consumer fetched, and resuming waits for a new fetch.)
     */
    void pauseTheFull() {
        Set<TopicPartition> pause = new HashSet<>();
        for (TopicPartition tp : consumer.assignment()) {
            PartitionProgress partition = progress.get(tp);
            if (partition != null && partition.full()) {
                pause.add(tp);
            }
        }
        if (!pause.equals(paused)) {
            Set<TopicPartition> resume = new HashSet<>(consumer.assignment());
            resume.removeAll(pause);
            consumer.resume(resume);
            consumer.pause(pause);
            paused = pause;
        }
    }
}
