package io.tablescan.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.Row;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The in-memory service's pace: per account and per partition, and never shared between accounts. */
class AccountPaceTest {
    private static final long FIVE_SECONDS = 5_000_000_000L;

    private static List<Row> rows(String partitionKey, int n) {
        return IntStream.range(0, n).mapToObj(i -> new Row(partitionKey, "r" + i, List.of())).toList();
    }

    @Test
    void anAccountOverItsRateWaits() {
        AccountPace pace = new ScalabilityTargets(10, 0).newPace();
        assertThat(pace.reserve(rows("a", 100))).as("the first request has the account to itself").isZero();
        assertThat(pace.reserve(rows("b", 1))).as("100 entities at 10/s hold the account for 10 s")
                .isGreaterThan(FIVE_SECONDS);
    }

    @Test
    void twoAccountsWithTheSameTargetsDoNotShareTheirPace() {
        ScalabilityTargets targets = new ScalabilityTargets(10, 10);
        AccountPace source = targets.newPace();
        AccountPace destination = targets.newPace();
        assertThat(source.reserve(rows("a", 100))).isZero();
        assertThat(destination.reserve(rows("a", 100))).as("reads do not slow the other account's writes").isZero();
    }

    @Test
    void aPartitionOverItsRateWaitsWhileOthersPass() {
        AccountPace pace = new ScalabilityTargets(0, 10).newPace();
        assertThat(pace.reserve(rows("p", 100))).isZero();
        assertThat(pace.reserve(rows("q", 1))).as("another partition").isZero();
        assertThat(pace.reserve(rows("p", 1))).as("the same partition").isGreaterThan(FIVE_SECONDS);
    }

    @Test
    void noTargetsNeverWait() {
        AccountPace pace = ScalabilityTargets.NONE.newPace();
        assertThat(pace.reserve(rows("p", 1000))).isZero();
        assertThat(pace.reserve(rows("p", 1000))).isZero();
    }
}
