package io.tablescan.rate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.Row;
import io.tablescan.spi.TableStore;
import io.tablescan.table.BackoffTableStore;
import io.tablescan.table.RetryCounter;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A service that answers 503 to half the requests above a rate: the process slows down instead of hammering it. */
@Execution(ExecutionMode.CONCURRENT) // its time is waiting in real time; runs beside the other classes
class BackoffTest {
    private static final int THREADS = 16;
    private static final int WRITES = 150;

    @Test
    void aThrottledAccountSlowsDownCompletesExactlyAndTakesFewRetries() throws InterruptedException {
        FakeStore service = new FakeStore(400);
        BackoffTableStore shared = new BackoffTableStore(service, "busy");
        long retries = write(shared);
        assertThat(service.rows).hasSize(THREADS * WRITES);
        assertThat(retries).as("retries: far fewer than 2 a row").isLessThan(THREADS * WRITES * 3 / 100);
        // retrying at full speed (no back-off) meets ~12% throttles here; with it about 1% (3% on a busy machine)
        assertThat(service.throttled.get()).as("throttled requests").isLessThan(service.requests.get() * 3 / 100);
        assertThat(shared.backoff().accountRate()).as("still held below full speed").isPositive();
    }

    @Test
    void aHotPartitionSlowsAloneTheAccountStaysAtFullSpeed() {
        Backoff backoff = new Backoff("hot");
        backoff.throttled("p1");
        backoff.throttled("p1");
        assertThat(backoff.hotPartitions()).isEqualTo(1);
        assertThat(backoff.accountRate()).isZero();
        backoff.throttled(null); // a range read throttled: the account is at its limit
        assertThat(backoff.accountRate()).isPositive();
    }

    /** Many threads each writing rows one at a time, retried as the workers retry; returns the retries. */
    private static long write(TableStore shared) throws InterruptedException {
        AtomicLong retries = new AtomicLong();
        RetryCounter counter = new RetryCounter() {
            @Override
            public void retried() {
                retries.incrementAndGet();
            }

            @Override
            public void throttled() {}
        };
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            TableStore store = new RetryingTableStore(shared, RetryPolicy.DEFAULT, counter);
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < WRITES; i++) {
                    store.upsert("t", "p" + (i % 50), List.of(new Row("p" + (i % 50), thread + "-" + i, List.of())));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return retries.get();
    }
}
