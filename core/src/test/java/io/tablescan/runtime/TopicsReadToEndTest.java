package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The one way to read a topic to its committed end: from where the reader stands, not past the end it saw. */
class TopicsReadToEndTest {
    static final TopicPartition P0 = new TopicPartition("t", 0);
    static final TopicPartition P1 = new TopicPartition("t", 1);
    final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");

    void records(TopicPartition tp, int count) {
        for (int i = 0; i < count; i++) {
            consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), i, null, new byte[] {(byte) i}));
        }
    }

    List<String> read(java.util.function.Predicate<ConsumerRecord<byte[], byte[]>> more) {
        List<String> read = new ArrayList<>();
        Topics.readToEnd(consumer, record -> {
            read.add(record.partition() + ":" + record.offset());
            return more.test(record);
        });
        return read;
    }

    @Test
    void readsEveryPartitionFromItsPositionToTheEndItSawAndNoFurther() {
        consumer.assign(List.of(P0, P1));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.updateEndOffsets(Map.of(P0, 2L, P1, 1L));
        consumer.seek(P0, 1);
        records(P0, 3); // offset 2: written after the end was read
        records(P1, 1);

        List<String> read = read(record -> true);

        assertThat(read).containsExactlyInAnyOrder("0:1", "1:0");
    }

    @Test
    void stopsAtTheFirstRecordItIsToldToStopAt() {
        consumer.assign(List.of(P0));
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.updateEndOffsets(Map.of(P0, 5L));
        records(P0, 5);

        assertThat(read(record -> record.offset() < 2)).containsExactly("0:0", "0:1", "0:2");
    }

    @Test
    void readFromStartSeeksToTheBeginning() {
        consumer.assign(List.of(P0, P1));
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.updateEndOffsets(Map.of(P0, 2L));
        records(P0, 2);
        consumer.seek(P0, 1);
        List<Long> read = new ArrayList<>();

        Topics.readFromStart(consumer, List.of(P0), record -> read.add(record.offset()));

        assertThat(read).containsExactly(0L, 1L);
        assertThat(consumer.assignment()).containsExactly(P0);
    }
}
