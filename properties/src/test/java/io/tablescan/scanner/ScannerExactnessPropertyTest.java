package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.Bound;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.LocalScan.Delivery;
import io.tablescan.testkit.LocalScan.Result;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import io.tablescan.testkit.ODataPredicate;
import io.tablescan.testkit.OddCharacters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The scan reads every row of its range exactly once, and counts each partition with selected rows exactly
 * once, whatever the keys and however the service pages: checked against the plain sorted listing over
 * generated tables, paging and delivery orders.
 */
class ScannerExactnessPropertyTest {
    static final String[] UNITS = OddCharacters.UNITS;

    /** One partition: its key and how many rows, with RowKeys built from the same odd characters. */
    record Partition(String key, int rows, int rowKeyStyle) {}

    /** Which part of the table a case scans. */
    enum Scope { ALL, PREFIX, BOUNDS }

    record Case(List<Partition> partitions, String sharedPrefix, int pageSize, int pageBudget, Adversary adversary,
            Strategy strategy, Scope scope, int scopeSeed, boolean rowFilter, Delivery delivery) {}

    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.of(UNITS).list().ofMaxSize(5).map(units -> String.join("", units));
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> sizes = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.integers().between(1, 5)),
                Tuple.of(3, Arbitraries.integers().between(6, 300)),
                Tuple.of(1, Arbitraries.integers().between(301, 3000)));
        Arbitrary<Partition> partition = Combinators.combine(keys(), sizes, Arbitraries.integers().between(0, 99))
                .as(Partition::new);
        Arbitrary<Integer> pageSizes = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.integers().between(1, 5)),
                Tuple.of(3, Arbitraries.integers().between(6, 100)),
                Tuple.of(1, Arbitraries.integers().between(101, 1000)));
        Arbitrary<Adversary> adversaries = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(Adversary.NONE)),
                Tuple.of(2, Combinators.combine(Arbitraries.longs(), Arbitraries.doubles().between(0, 0.5),
                        Arbitraries.doubles().between(0, 0.3), Arbitraries.doubles().between(0, 1))
                        .as(Adversary::new)));
        Arbitrary<Delivery> deliveries = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(Delivery.DEPTH_FIRST)),
                Tuple.of(1, Arbitraries.longs().map(seed -> new Delivery(new Random(seed), 0))),
                Tuple.of(1, Arbitraries.longs().map(seed -> new Delivery(new Random(seed), 0.05))));
        Arbitrary<String> sharedPrefixes = Arbitraries.of("", "", "", "p".repeat(200), "x\uFFFF".repeat(100));
        var first = Combinators.combine(partition.list().ofMinSize(1).ofMaxSize(30), sharedPrefixes, pageSizes,
                Arbitraries.integers().between(1, 6), adversaries).as(Tuple::of);
        var second = Combinators.combine(Arbitraries.of(Strategy.class), Arbitraries.of(Scope.class),
                Arbitraries.integers().between(0, 1_000_000), Arbitraries.of(false, false, false, true), deliveries)
                .as(Tuple::of);
        return Combinators.combine(first, second).as((a, b) -> new Case(a.get1(), a.get2(), a.get3(), a.get4(),
                a.get5(), b.get1(), b.get2(), b.get3(), b.get4(), b.get5()));
    }

    @Property(tries = 10_000)
    void everyRowOfTheRangeExactlyOnce(@ForAll("cases") Case c) {
        Fixture f = Fixture.of(c);
        // Page sizes from 1 meet tables of a few rows; thousands of rows meet pages of a few dozen and more:
        // about 300 pages a case keeps 10,000 cases within CI's minutes.
        int rows = c.partitions().stream().mapToInt(Partition::rows).sum();
        int pageSize = Math.min(1000, Math.max(c.pageSize(), rows / 300));
        // Some cases read the keys only, as a count does; the filter still sees every property.
        List<String> select = c.scopeSeed() % 3 == 0 ? List.of() : null;
        QueryOptions options = new QueryOptions(pageSize, select, c.rowFilter() ? "v ge 5" : null);

        Result result = LocalScan.run(f.store(), "t", f.range(), c.strategy(), options, c.pageBudget(), c.delivery());

        List<String> expected = f.expected(options.rowFilter());
        assertThat(keys(result.originalRows())).as("the original deliveries read the range exactly once")
                .containsExactlyElementsOf(expected);
        assertThat(new LinkedHashSet<>(keys(result.rows()))).as("duplicate deliveries add nothing new")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(result.originalPartitions()).as("the original deliveries count each partition once")
                .isEqualTo(f.expectedPartitions(options.rowFilter()));
        assertThat(result.maxPagesPerItem()).as("pages per item").isLessThanOrEqualTo(c.pageBudget());
        if (c.delivery().duplicates() > 0) {
            return; // the bounds are of one scan; a duplicate delivery runs part of it again
        }
        assertThat((long) result.requests()).as("requests within ScanCosts").isLessThanOrEqualTo(
                ScanCosts.maxRequests(result.continuedPages(), result.emptyContinuedPages(), f.maxKeyLength()));
        if (c.adversary().equals(Adversary.NONE)) {
            assertThat(result.continuedPages() * pageSize).as("full pages").isLessThanOrEqualTo(expected.size());
        }
    }

    static List<String> keys(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparing(Row::partitionKey).thenComparing(Row::rowKey))
                .map(r -> r.partitionKey() + "\u0000" + r.rowKey()).toList();
    }

    /** A case's table in memory, the range it scans, and the rows that range should yield. */
    record Fixture(InMemoryTableStore store, KeyRange range, int maxKeyLength) {
        static Fixture of(Case c) {
            InMemoryTableStore store = new InMemoryTableStore(c.adversary(), Duration.ZERO);
            store.createTableIfNotExists("t");
            List<String> pks = new ArrayList<>();
            int maxKeyLength = 0;
            for (Partition p : c.partitions()) {
                String pk = c.sharedPrefix() + p.key();
                pks.add(pk);
                maxKeyLength = Math.max(maxKeyLength, pk.length());
                List<Row> rows = new ArrayList<>();
                for (int i = 0; i < p.rows(); i++) {
                    String rk = i == 0 && p.rowKeyStyle() % 2 == 0 ? ""
                            : UNITS[(i * 7 + p.rowKeyStyle()) % UNITS.length] + String.format("%05d", i);
                    rows.add(new Row(pk, rk, List.of(new io.tablescan.spi.RowProperty("v", EdmType.INT32, (i + p.rowKeyStyle()) % 10))));
                }
                for (int from = 0; from < rows.size(); from += 100) {
                    store.upsert("t", pk, rows.subList(from, Math.min(rows.size(), from + 100)));
                }
            }
            return new Fixture(store, range(c, pks), maxKeyLength);
        }

        static KeyRange range(Case c, List<String> pks) {
            Random random = new Random(c.scopeSeed());
            String some = pks.get(random.nextInt(pks.size()));
            return switch (c.scope()) {
                case ALL -> KeyRange.ALL;
                case PREFIX -> {
                    String prefix = Keys.prefix(some, random.nextInt(some.length() + 1));
                    yield new KeyRange(Bound.from(prefix), Keys.successor(prefix));
                }
                case BOUNDS -> {
                    String other = pks.get(random.nextInt(pks.size()));
                    String low = some.compareTo(other) <= 0 ? some : other;
                    String high = some.compareTo(other) <= 0 ? other : some;
                    yield new KeyRange(new Bound(low, random.nextBoolean()), random.nextBoolean() ? high : null);
                }
            };
        }

        List<String> expected(String rowFilter) {
            return keys(selected(rowFilter));
        }

        long expectedPartitions(String rowFilter) {
            return selected(rowFilter).stream().map(Row::partitionKey).distinct().count();
        }

        private List<Row> selected(String rowFilter) {
            Predicate<Row> filter = ODataPredicate.parse(rowFilter);
            return store.rows("t").stream()
                    .filter(r -> range.contains(r.partitionKey(), r.rowKey()) && filter.test(r)).toList();
        }
    }
}
