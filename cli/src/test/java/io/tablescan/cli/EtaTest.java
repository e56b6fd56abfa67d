package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The time left, on a fake clock: from the recent rate, and none where it cannot be known. */
class EtaTest {
    final AtomicLong now = new AtomicLong(1_000_000);
    final Eta eta = new Eta(now::get);

    private java.util.Optional<Duration> at(long seconds, long done, long total) {
        now.set(1_000_000 + seconds * 1000);
        return eta.left(done, total);
    }

    @Test
    void noneDuringTheFirstFiveSecondsThenFromTheRate() {
        assertThat(at(0, 0, 10_000)).isEmpty();
        assertThat(at(4, 400, 10_000)).as("4 s of figures").isEmpty();
        assertThat(at(5, 500, 10_000)).contains(Duration.ofSeconds(95)); // 100 rows/s, 9,500 to go
        assertThat(eta.suffix(1_000, 10_000)).isEqualTo(", about 0:45 left"); // 200 rows/s from the start
    }

    @Test
    void theRateIsTheLastTenSecondsNotTheWholeRun() {
        at(0, 0, 100_000);
        at(5, 500, 100_000); // 100 rows/s for a while
        at(10, 1_000, 100_000);
        at(15, 11_000, 100_000); // then 2,000 rows/s
        at(20, 21_000, 100_000);
        // the window's oldest figure is 10 s old: (21,000 - 1,000) / 10 s = 2,000 rows/s; 79,000 to go
        assertThat(at(20, 21_000, 100_000)).contains(Duration.ofMillis(39_500));
        assertThat(at(25, 31_000, 100_000)).as("window moved on: 2,000 rows/s").contains(Duration.ofMillis(34_500));
    }

    @Test
    void noneWhenNothingMovesWithoutATotalOrPastAnEstimatedTotal() {
        at(0, 100, 1_000);
        assertThat(at(6, 100, 1_000)).as("no row moved").isEmpty();
        assertThat(at(7, 200, 0)).as("no total").isEmpty();
        assertThat(at(8, 1_000, 1_000)).as("done").isEmpty();
        assertThat(at(9, 1_200, 1_000)).as("the estimated total was too low").isEmpty();
        assertThat(eta.suffix(1_300, 1_000)).isEmpty();
    }

    @Test
    void aStartWhereNothingMovesDoesNotSlowTheFirstRates() {
        // A resumed job: 29,000 rows done, then 10 s while its broker and workers start, then 100 rows/s.
        for (int second = 0; second <= 10; second += 5) {
            at(second, 29_000, 60_000);
        }
        at(12, 29_200, 60_000);
        at(15, 29_500, 60_000);
        // 100 rows/s since the rows began to move (not 500 rows over 10 s: 16 s more); 30,500 to go
        assertThat(at(17, 29_700, 60_000)).contains(Duration.ofSeconds(303));
        assertThat(eta.rate()).contains(100.0);
        assertThat(at(20, 30_000, 60_000)).contains(Duration.ofSeconds(300));
    }

    @Test
    void aStallShowsNoRateNotTheWholeRunsAverage() {
        // A copy-worker killed mid-scan: 12,646 rows done by 0:26, then nothing for 30 s.
        at(16, 5_115, 0);
        at(21, 8_838, 0);
        at(26, 12_646, 0);
        at(31, 12_646, 0);
        assertThat(eta.rate()).as("3,808 rows over the last 10 s").contains(380.8);
        at(36, 12_646, 0);
        assertThat(eta.rate()).contains(0.0);
        at(41, 12_646, 0);
        assertThat(eta.rate()).as("still nothing done: 0, not 12,646 rows / 41 s").contains(0.0);
        at(56, 12_646, 0);
        assertThat(eta.rate()).contains(0.0);
        at(61, 13_000, 0); // a worker again
        assertThat(eta.rate()).as("354 rows over the 5 s since the last figure").contains(70.8);
        at(66, 20_000, 0);
        assertThat(eta.rate()).contains(7_354 / 10.0);
    }
}
