package io.tablescan.runner;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.status.ScanStatusReader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Waits until the ledger has folded every scan event committed so far on the partition that holds a scan's events.
 * A stopped run's workers commit their last events moments before it prints and saves its counts; the ledger folds
 * them a little later (its commit interval), and a count read before that leaves out rows the job has done.
 */
final class LedgerCatchUp {
    /** Far more than a ledger that runs needs (it commits every 200 ms); it bounds a stop whose ledger is broken. */
    static final Duration AT_MOST = Duration.ofSeconds(30);
    private static final Duration AGAIN_AFTER = Duration.ofMillis(50);

    private LedgerCatchUp() {}

    /**
     * True once the ledger's committed input offset on the scan's events partition has no committed event at or
     * after it (transaction markers aside), false when {@code timeout} passed first. Call it once the events to
     * count are committed: the workers that write them have stopped.
     */
    static boolean await(KafkaSettings kafka, String scanId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String events = kafka.namespace().scanEvents();
        try (Admin admin = kafka.newAdmin(); Consumer<byte[], byte[]> reader = kafka.newReader()) {
            TopicPartition partition = ScanStatusReader.partitionOf(reader, events, scanId);
            if (partition == null) {
                return true; // no events topic: nothing to fold
            }
            reader.assign(List.of(partition));
            long start = reader.beginningOffsets(List.of(partition)).get(partition);
            long end = reader.endOffsets(List.of(partition)).get(partition); // read_committed: what is committed
            while (true) {
                long folded = Math.max(start, committed(admin, kafka.namespace().ledger(), partition, deadline));
                if (!anyEvent(reader, partition, folded, end)) {
                    return true;
                }
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                Thread.sleep(AGAIN_AFTER.toMillis()); // the ledger's next commit
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The ledger group's committed offset on {@code partition}: the first event it has not folded; 0 for none yet. */
    private static long committed(Admin admin, String group, TopicPartition partition, long deadline)
            throws InterruptedException {
        try {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).get(partition);
            return offset == null ? 0 : offset.offset();
        } catch (ExecutionException | TimeoutException e) {
            return 0; // asked again until the deadline
        }
    }

    /** Whether a committed event lies in [{@code from}, {@code end}) (markers of transactions are no events). */
    private static boolean anyEvent(Consumer<byte[], byte[]> reader, TopicPartition partition, long from, long end) {
        if (from >= end) {
            return false;
        }
        reader.seek(partition, from);
        boolean[] found = {false};
        Topics.readToEnd(reader, java.util.Map.of(partition, end), record -> found[0] = true);
        return found[0];
    }
}
