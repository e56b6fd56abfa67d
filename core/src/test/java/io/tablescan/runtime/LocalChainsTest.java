package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which continuation a thread goes on with, and how its offset is taken in hand. */
class LocalChainsTest {
    static final TopicPartition INPUT = new TopicPartition("in", 3);
    final PartitionProgress progress = new PartitionProgress(new OffsetAndMetadata(10));

    static ProducerRecord<byte[], byte[]> to(String topic) {
        return new ProducerRecord<>(topic, "k".getBytes(), "v".getBytes());
    }

    InFlightItems.Completion finished(List<ProducerRecord<byte[], byte[]>> records) {
        progress.fetched(10);
        ItemProcessor.Outcome outcome = new ItemProcessor.Outcome(records, "scan", ItemKind.PARTITION_QUERY, 1,
                new ItemHandler.Result(List.of(), 1, 0, 1), null, null);
        return new InFlightItems.Completion(INPUT, progress, 10, outcome, null);
    }

    @Test
    void theOnlyContinuationIsRedirectedToTheRecordsOwnPartitionAndLinked() {
        InFlightItems.Completion done = finished(List.of(to("batches"), to("in")));

        InFlightItems.Completion posted = new LocalChains(true, () -> true, 8).next(done, 1);

        assertThat(posted.next()).isNotNull();
        assertThat(posted.outcome().records()).extracting(ProducerRecord::topic).containsExactly("batches", "in");
        assertThat(posted.outcome().records().get(1).partition()).isEqualTo(3);
        assertThat(posted.outcome().records().get(0).partition()).as("other outputs untouched").isNull();
        assertThat(posted.next().record).isSameAs(posted.outcome().records().get(1));
    }

    @Test
    void noLinkWithoutAFreeSlotWhenTheHandIsFullForASplitOrWhenStopping() {
        List<ProducerRecord<byte[], byte[]>> one = List.of(to("in"));
        assertThat(new LocalChains(true, () -> false, 8).next(finished(one), 1).next()).as("no slot").isNull();
        assertThat(new LocalChains(true, () -> true, 8).next(finished(one), 8).next()).as("hand full").isNull();
        assertThat(new LocalChains(false, () -> true, 8).next(finished(one), 1).next()).as("not chains").isNull();
        assertThat(new LocalChains(true, () -> true, 8).next(finished(List.of(to("in"), to("in"))), 1).next())
                .as("a split").isNull();
        LocalChains stopping = new LocalChains(true, () -> true, 8);
        stopping.stop();
        InFlightItems.Completion done = finished(one);
        assertThat(stopping.next(done, 1)).isSameAs(done);
    }

    @Test
    void aWrittenLinkIsTakenInHandOrDroppedAndItsThreadFollowsAccordingly() {
        LocalChains chains = new LocalChains(true, () -> true, 8);
        LocalChains.Link link = chains.next(finished(List.of(to("in"))), 1).next();
        assertThat(chains.written(link, CompletableFuture.completedFuture(new RecordMetadata(INPUT, 42, 0, 7L, 1, 1)),
                true)).isTrue();

        InFlightItems.Completion followed = chains.follow(link, l -> record -> {
            assertThat(record.offset()).isEqualTo(42);
            assertThat(record.partition()).isEqualTo(3);
            return null;
        });
        assertThat(followed.offset()).isEqualTo(42);
        assertThat(progress.fetched(42)).as("in hand: skipped when fetched").isFalse();

        LocalChains.Link moved = chains.next(finished(List.of(to("in"))), 1).next();
        assertThat(chains.written(moved, CompletableFuture.completedFuture(new RecordMetadata(INPUT, 43, 0, 7L, 1, 1)),
                false)).isFalse();
        assertThat(chains.follow(moved, l -> record -> {
            throw new AssertionError("a dropped link's outcome is never made");
        })).as("left to Kafka").isNull();
        assertThat(progress.fetched(43)).as("fetched and processed as usual").isTrue();
    }
}
