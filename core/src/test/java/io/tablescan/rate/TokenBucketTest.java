package io.tablescan.rate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
    private final AtomicLong now = new AtomicLong();
    private final TokenBucket bucket = new TokenBucket(100, now::get);

    @Test
    void aRequestGoesWhileTheBucketIsNotInDebtAndLaterOnesWaitUntilItIsPaid() {
        assertThat(bucket.tryTake(300)).as("a page larger than the burst goes at once").isZero();
        assertThat(bucket.tryTake(1)).as("3 s of debt at 100/s").isEqualTo(3_000_000_000L);
        now.addAndGet(3_000_000_000L);
        assertThat(bucket.tryTake(1)).isZero();
    }

    @Test
    void unusedTokensComeBackAndANewRateCountsAtOnce() {
        bucket.tryTake(300);
        bucket.refund(300); // the page came back empty
        assertThat(bucket.tryTake(1)).isZero();
        assertThat(bucket.tryTake(1)).as("1 row of debt at 100/s").isEqualTo(10_000_000L);
        bucket.setRate(1000);
        assertThat(bucket.tryTake(1)).isEqualTo(1_000_000L);
    }

    @Test
    void savingsWhileIdleAreBoundedByAFifthOfASecond() {
        now.addAndGet(60_000_000_000L);
        bucket.tryTake(20); // the burst: 0.2 s at 100/s
        assertThat(bucket.tryTake(1)).isZero();
        assertThat(bucket.tryTake(1)).isPositive();
    }
}
