package io.tablescan.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.PartitionStep;
import io.tablescan.scanner.PrefixStep;
import io.tablescan.scanner.SerialStep;
import io.tablescan.scanner.StepResult;
import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ScanQuery;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.OddCharacters;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Whole scans, step by step as the workers run them, each step comparing its range with the destination: every
 * difference is found exactly once, under adversarial paging (short and empty pages with continuations) on both
 * tables, odd keys, page sizes from 1, both strategies and sub-ranges.
 */
class RangeComparerTest {
    private static final String T = "t";

    @Test
    void equalTablesHaveNoDifferences() {
        Random random = new Random(1);
        TreeMap<String, Row> rows = randomRows(random, 40);
        for (long seed = 0; seed < 10; seed++) {
            InMemoryTableStore source = store(new Adversary(seed, 0.3, 0.2, 0.5), rows.values());
            InMemoryTableStore dest = store(new Adversary(seed + 100, 0.3, 0.2, 0.5), rows.values());
            Found found = scan(source, dest, KeyRange.ALL, (int) (1 + seed % 4), 1 + (int) (seed % 3), seed % 2 == 0);
            assertThat(found.differences).isEmpty();
            assertThat(found.rowsRead).isEqualTo(rows.size());
        }
    }

    @Test
    void everyDifferenceIsFoundOnceUnderAdversarialPaging() {
        for (long round = 0; round < 40; round++) {
            Random random = new Random(round);
            TreeMap<String, Row> source = randomRows(random, 1 + random.nextInt(50));
            TreeMap<String, Row> dest = new TreeMap<>(source);
            TreeMap<String, DifferenceKind> expected = new TreeMap<>();
            for (String key : source.keySet()) {
                int dice = random.nextInt(10);
                if (dice == 0) {
                    dest.remove(key);
                    expected.put(key, DifferenceKind.MISSING);
                } else if (dice == 1) {
                    Row row = source.get(key);
                    dest.put(key, new Row(row.partitionKey(), row.rowKey(), List.of(
                            new RowProperty("v", EdmType.DOUBLE, Math.nextUp((double) round)))));
                    expected.put(key, DifferenceKind.DIFFERENT);
                }
            }
            for (Row extra : randomRows(random, 1 + random.nextInt(10)).values()) { // extra rows and partitions
                String key = key(extra);
                if (!source.containsKey(key)) {
                    dest.put(key, extra);
                    expected.put(key, DifferenceKind.EXTRA);
                }
            }
            int pageSize = 1 + random.nextInt(random.nextBoolean() ? 4 : 300);
            KeyRange range = random.nextInt(4) == 0 ? new KeyRange(io.tablescan.spi.Bound.from("a"), "b") : KeyRange.ALL;
            InMemoryTableStore s = store(new Adversary(round, 0.3, 0.2, 0.5), source.values());
            InMemoryTableStore d = store(new Adversary(round + 1000, 0.3, 0.2, 0.5), dest.values());
            Found found = scan(s, d, range, pageSize, 1 + random.nextInt(3), random.nextBoolean());

            TreeMap<String, DifferenceKind> inRange = new TreeMap<>();
            expected.forEach((key, kind) -> {
                String pk = key.substring(0, key.indexOf('\u0001'));
                String rk = key.substring(key.indexOf('\u0001') + 1);
                if (range.contains(pk, rk)) {
                    inRange.put(key, kind);
                }
            });
            TreeMap<String, DifferenceKind> actual = new TreeMap<>();
            for (Difference difference : found.differences) {
                String key = difference.getPartitionKey() + '\u0001' + difference.getRowKey();
                assertThat(actual.put(key, difference.getKind())).as("found once: %s", key).isNull();
            }
            assertThat(actual).as("round %d", round).isEqualTo(inRange);
        }
    }

    @Test
    void propertiesCompareByTypeAndExactValue() {
        Row a = new Row("p", "r", List.of(new RowProperty("d", EdmType.DATETIME, 1_000_000L),
                new RowProperty("x", EdmType.DOUBLE, 0.1), new RowProperty("i", EdmType.INT32, 5),
                new RowProperty("b", EdmType.BINARY, new byte[] {1, 2}), new RowProperty("same", EdmType.STRING, "s")));
        Row b = new Row("p", "r", List.of(new RowProperty("d", EdmType.DATETIME, 1_000_001L),
                new RowProperty("x", EdmType.DOUBLE, Math.nextUp(0.1)), new RowProperty("i", EdmType.INT64, 5L),
                new RowProperty("b", EdmType.BINARY, new byte[] {1, 2}), new RowProperty("same", EdmType.STRING, "s"),
                new RowProperty("Timestamp", EdmType.DATETIME, 5L), new RowProperty("more", EdmType.BOOLEAN, true)));
        RowMerge.Result result = RowMerge.merge("s", List.of(a), List.of(b));
        assertThat(result.differing()).isEqualTo(1);
        assertThat(result.differences().get(0).getProperties()).extracting(p -> p.getName())
                .containsExactly("d", "i", "more", "x");
    }

    @Test
    void spansOfAStepAreItsRangeLessItsHandoffs() {
        KeyRange item = new KeyRange(io.tablescan.spi.Bound.from("a"), "z");
        List<ScanQuery> handoffs = List.of(new PartitionRange("c", io.tablescan.spi.Bound.after("r")),
                new KeyRange(io.tablescan.spi.Bound.after("c"), "d"), new KeyRange(io.tablescan.spi.Bound.from("m"), "z"));
        List<KeySpan> covered = KeySpan.covered(item, handoffs);
        assertThat(covered).containsExactly(
                new KeySpan(KeyPoint.start("a"), new KeyPoint(KeyPoint.Place.AFTER, "c", "r")),
                new KeySpan(KeyPoint.start("d"), KeyPoint.start("m")));
    }

    record Found(List<Difference> differences, long rowsRead) {}

    /** The scan, depth first, as the workers run its items; each step compares its range. */
    static Found scan(InMemoryTableStore source, InMemoryTableStore dest, KeyRange range, int pageSize, int budget,
            boolean serial) {
        QueryOptions options = new QueryOptions(pageSize, null, null);
        PageReader s = (q, from) -> source.query(T, q, options, from);
        PageReader d = (q, from) -> dest.query(T, q, options, from);
        Deque<ScanQuery> items = new ArrayDeque<>(List.of(range));
        List<Difference> differences = new ArrayList<>();
        long rows = 0;
        while (!items.isEmpty()) {
            ScanQuery item = items.pop();
            StepResult step = switch (item) {
                case KeyRange r -> serial ? SerialStep.run(r, budget, s) : PrefixStep.run(r, budget, s);
                case PartitionRange p -> PartitionStep.run(p, budget, s);
            };
            rows += step.rows().size();
            differences.addAll(RangeComparer.compare("scan", item, step, d).merge().differences());
            step.handoffs().forEach(items::push);
        }
        return new Found(differences, rows);
    }

    static InMemoryTableStore store(Adversary adversary, Iterable<Row> rows) {
        InMemoryTableStore store = new InMemoryTableStore(adversary, Duration.ZERO);
        store.createTableIfNotExists(T);
        for (Row row : rows) {
            store.upsert(T, row.partitionKey(), List.of(row));
        }
        return store;
    }

    static TreeMap<String, Row> randomRows(Random random, int partitions) {
        TreeMap<String, Row> rows = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            String pk = randomKey(random);
            int size = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
            for (int r = 0; r < size; r++) {
                Row row = new Row(pk, randomKey(random), List.of(new RowProperty("v", EdmType.DOUBLE, 1.0 * p)));
                rows.put(key(row), row);
            }
        }
        return rows;
    }

    private static String key(Row row) {
        return row.partitionKey() + '\u0001' + row.rowKey();
    }

    private static String randomKey(Random random) {
        StringBuilder key = new StringBuilder();
        int length = random.nextInt(4);
        for (int i = 0; i < length; i++) {
            key.append(OddCharacters.UNITS[random.nextInt(OddCharacters.UNITS.length)]);
        }
        return key.toString();
    }
}
