package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.Bound;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.LocalScan.Delivery;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each partition with selected rows counts once, however many items read it. */
class PartitionCountTest {
    private static Row row(String pk, String rk) {
        return new Row(pk, rk, List.of());
    }

    @Test
    void anItemCountsThePartitionsItStartsUnlessItContinuesOne() {
        List<Row> rows = List.of(row("a", "1"), row("a", "2"), row("b", "1"), row("c", "1"));
        assertThat(PartitionCount.counted(null, rows)).isEqualTo(3);
        assertThat(PartitionCount.counted("a", rows)).as("a was counted before this item").isEqualTo(2);
        assertThat(PartitionCount.counted("a", List.of())).isZero();
        assertThat(PartitionCount.counted(null, List.of(row("", "")))).as("the empty PartitionKey").isEqualTo(1);
    }

    @Test
    void aHandOffContinuesThePartitionItStartsInsideWhenARowOfItWasRead() {
        List<Row> rows = List.of(row("a", "1"), row("b", "5"));
        assertThat(PartitionCount.continuedBy(new PartitionRange("a", Bound.after("1")), null, rows)).isEqualTo("a");
        assertThat(PartitionCount.continuedBy(new KeyRange(Bound.from("b"), Bound.after("5"), null), null, rows))
                .isEqualTo("b");
        assertThat(PartitionCount.continuedBy(new KeyRange(Bound.after("b"), "c"), null, rows))
                .as("a range from a partition boundary continues none").isNull();
        assertThat(PartitionCount.continuedBy(new KeyRange(Bound.from("x"), Bound.from("1"), null), "x", List.of()))
                .as("nothing read: the item's own continued partition goes on").isEqualTo("x");
        assertThat(PartitionCount.continuedBy(new KeyRange(Bound.from("x"), Bound.from("1"), null), "w", List.of()))
                .as("an empty page's token inside a partition nothing was read of").isNull();
    }

    /** One partition of 3,000 rows in pages of 100, one page per item: a chain of 30 items, one partition. */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aBigPartitionReadByAChainCountsOnce(Strategy strategy) {
        InMemoryTableStore store = table(List.of(3000), new Adversary(7, 0.3, 0.2, 0.5));
        var result = LocalScan.run(store, "t", KeyRange.ALL, strategy, new QueryOptions(100, List.of(), null), 1,
                Delivery.DEPTH_FIRST);
        assertThat(result.originalRows()).hasSize(3000);
        assertThat(result.originalPartitions()).isEqualTo(1);
    }

    /** Small partitions, short and empty pages, a filter that skips rows, duplicate deliveries. */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void manySmallPartitionsUnderAdversarialPagingCountOnceEach(Strategy strategy) {
        List<Integer> sizes = new ArrayList<>();
        Random random = new Random(42);
        for (int i = 0; i < 300; i++) {
            sizes.add(1 + random.nextInt(i % 10 == 0 ? 40 : 4));
        }
        InMemoryTableStore store = table(sizes, new Adversary(11, 0.4, 0.3, 0.5));
        for (String filter : new String[] {null, "v ge 7"}) {
            long expected = store.rows("t").stream()
                    .filter(r -> filter == null || (int) r.properties().get(0).value() >= 7)
                    .map(Row::partitionKey).distinct().count();
            for (long seed = 0; seed < 5; seed++) {
                var result = LocalScan.run(store, "t", KeyRange.ALL, strategy, new QueryOptions(3, List.of(), filter),
                        2, new Delivery(new Random(seed), 0.1));
                assertThat(result.originalPartitions()).as(filter + ", seed " + seed).isEqualTo(expected);
            }
        }
    }

    private static InMemoryTableStore table(List<Integer> sizes, Adversary adversary) {
        InMemoryTableStore store = new InMemoryTableStore(adversary, Duration.ZERO);
        store.createTableIfNotExists("t");
        for (int p = 0; p < sizes.size(); p++) {
            String pk = "p" + Integer.toString(p * 7919 % 1000, 36);
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < sizes.get(p); i++) {
                rows.add(new Row(pk, String.format("%05d", i), List.of(new RowProperty("v", EdmType.INT32, (i * 3 + p) % 10))));
            }
            for (int from = 0; from < rows.size(); from += 100) {
                store.upsert("t", pk, rows.subList(from, Math.min(rows.size(), from + 100)));
            }
        }
        return store;
    }
}
