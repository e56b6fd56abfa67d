package io.tablescan.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The destination side of a comparison through a selection: the rows held under given keys, at a bounded cost. */
class KeyedReaderTest {
    private static final String T = "t";

    @Test
    void aPointReadTakesOneRequestAndAMissingKeyIsNoRow() {
        InMemoryTableStore store = store(Adversary.NONE, rows("p", 0, 100));
        List<Row> keys = List.of(row("p", 7), row("p", 500), row("q", 1));

        SpanReader.Read read = KeyedReader.read(keys, reads(store), 1000);

        assertThat(read.rows()).extracting(Row::rowKey).containsExactly(key(7));
        assertThat(read.requests()).isEqualTo(3);
    }

    @Test
    void keysFarApartInABigPartitionCostNoMoreThanTheirPointReads() {
        InMemoryTableStore store = store(Adversary.NONE, rows("p", 0, 20_000));
        List<Row> keys = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            keys.add(row("p", i * 1_000));
        }

        SpanReader.Read read = KeyedReader.read(keys, reads(store), 100);

        assertThat(read.rows()).extracting(Row::rowKey).containsExactlyElementsOf(keys.stream().map(Row::rowKey).toList());
        assertThat(read.requests()).isLessThanOrEqualTo(2 * keys.size()); // a whole range read took 191
    }

    @Test
    void everyKeyIsFoundUnderAdversarialPaging() {
        for (long seed = 0; seed < 30; seed++) {
            Random random = new Random(seed);
            InMemoryTableStore store = store(new Adversary(seed, 0.3, 0.2, 0.5), rows("p", 0, 300));
            List<Row> keys = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 400; i += 1 + random.nextInt(20)) {
                keys.add(row("p", i));
                if (i < 300) {
                    expected.add(key(i));
                }
            }

            SpanReader.Read read = KeyedReader.read(keys, reads(store), 1 + random.nextInt(50));

            assertThat(read.rows()).as("seed " + seed).extracting(Row::rowKey).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void keysCloseTogetherAreReadAsOneRange() {
        InMemoryTableStore store = store(Adversary.NONE, rows("p", 0, 300));
        List<Row> keys = new ArrayList<>();
        for (int i = 0; i < 300; i += 3) {
            keys.add(row("p", i));
        }

        SpanReader.Read read = KeyedReader.read(keys, reads(store), 100);

        assertThat(read.rows()).hasSize(100);
        assertThat(read.requests()).isLessThanOrEqualTo(3);
    }

    private static TableReads reads(InMemoryTableStore store) {
        return (pageSize, filter) -> (q, from) -> store.query(T, q, new QueryOptions(pageSize, null, filter), from);
    }

    private static List<Row> rows(String pk, int from, int to) {
        List<Row> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            rows.add(row(pk, i));
        }
        return rows;
    }

    private static Row row(String pk, int i) {
        return new Row(pk, key(i), List.of(new RowProperty("v", EdmType.INT32, i)));
    }

    private static String key(int i) {
        return String.format("r%06d", i);
    }

    private static InMemoryTableStore store(Adversary adversary, List<Row> rows) {
        return RangeComparerTest.store(adversary, rows);
    }
}
