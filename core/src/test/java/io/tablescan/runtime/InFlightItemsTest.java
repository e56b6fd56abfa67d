package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class InFlightItemsTest {
    private final AtomicInteger wakes = new AtomicInteger();
    private final InFlightItems items = new InFlightItems(Thread.ofVirtual().factory(), wakes::incrementAndGet,
            new LocalChains(false, () -> true, 8), link -> null);

    /**
     * A record that finishes while the consumer runs a rebalance callback inside the loop's poll: a wakeup then would
     * abort the callback's own consumer calls (its committed offsets), so it waits until the callback has returned.
     */
    @Test
    void aRecordFinishingDuringARebalanceCallbackWakesTheLoopOnlyAfterIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        items.submit(new TopicPartition("in", 0), new PartitionProgress(new OffsetAndMetadata(0)), 0, 10, () -> {
            await(release);
            return null;
        });
        items.waitFor(() -> {
            items.withoutWakeups(() -> {
                release.countDown();
                awaitUntil(() -> items.unfinished() == 0);
                assertThat(wakes.get()).as("wakeups during the callback").isZero();
            });
            assertThat(wakes.get()).as("the wakeup it held back, after the callback").isEqualTo(1);
            return null;
        });
        assertThat(items.next()).as("the finished record, for the loop").isNotNull();
    }

    @Test
    void aCallbackWithNothingFinishingWakesNothing() {
        items.submit(new TopicPartition("in", 0), new PartitionProgress(new OffsetAndMetadata(0)), 0, 10, () -> {
            await(new CountDownLatch(1)); // never released: stopped by close
            return null;
        });
        items.waitFor(() -> {
            items.withoutWakeups(() -> {});
            return null;
        });
        assertThat(wakes.get()).isZero();
        items.close();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
