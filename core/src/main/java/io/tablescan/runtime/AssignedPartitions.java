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
import org.apache.kafka.common.errors.WakeupException;

/**
 * The worker's input partitions and each one's {@link PartitionProgress}: what to commit, where to rewind to,
 * and which to pause. Only the loop thread changes it; record threads only ask whether their progress is
 * still the current one (a rewind or a rebalance replaces it, and work of a replaced one is abandoned).
 */
final class AssignedPartitions {
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
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = consumer.committed(set);
        } catch (WakeupException e) {
            committed = consumer.committed(set); // a finished record's wakeup, not a reason to skip this
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
