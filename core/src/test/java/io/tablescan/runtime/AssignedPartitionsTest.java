package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** Loading assigned partitions waits out a broker slow to say their committed offsets. */
class AssignedPartitionsTest {
    static final TopicPartition TP = new TopicPartition("in", 0);

    /** A consumer whose first {@code slow} asks for committed offsets time out, as a held-back OffsetFetch does. */
    static MockConsumer<byte[], byte[]> slowToAnswer(int slow, AtomicInteger asked) {
        return new MockConsumer<>("earliest") {
            @Override
            public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
                if (asked.incrementAndGet() <= slow) {
                    throw new TimeoutException("Timeout of 60000ms expired before the last committed offset");
                }
                return Map.of(TP, new OffsetAndMetadata(42));
            }
        };
    }

    @Test
    void aTimedOutAskForCommittedOffsetsIsAskedAgain() {
        AtomicInteger asked = new AtomicInteger();
        AssignedPartitions partitions = new AssignedPartitions(slowToAnswer(2, asked));

        partitions.load(List.of(TP));

        assertThat(asked).hasValue(3);
        assertThat(partitions.get(TP).committedOffset()).isEqualTo(42);
    }

    @Test
    void aBrokerThatNeverAnswersEndsTheWorkerInTheEnd() {
        AtomicInteger asked = new AtomicInteger();
        AssignedPartitions partitions = new AssignedPartitions(slowToAnswer(Integer.MAX_VALUE, asked));

        assertThatThrownBy(() -> partitions.load(List.of(TP))).isInstanceOf(TimeoutException.class);
        assertThat(asked).hasValue(5);
    }
}
