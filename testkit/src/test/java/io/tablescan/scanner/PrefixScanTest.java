package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.LocalScan.Result;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrefixScanTest {
    static final String[] ODD = {"", "'", "''", "%", "~", "\uFFFE", "\uFFFF", "\uFFFF\uFFFF", "a\uFFFF", "a\uFFFFb",
        "a\uFFFF\uFFFF", "a", "ab", "a\uD800\uDC00", "a\uDBFF\uDFFF", "\uD800\uDC00", "\uDBFF\uDFFF\uFFFF", "\uE000",
        "A", "Z", "z", "0", "9", "a'b", "\uFFFFa"};

    public static InMemoryTableStore table(Adversary adversary, List<String[]> keys) {
        InMemoryTableStore store = new InMemoryTableStore(adversary, Duration.ZERO);
        store.createTableIfNotExists("t");
        for (String[] key : keys) {
            store.upsert("t", key[0], List.of(new Row(key[0], key[1], List.of())));
        }
        return store;
    }

    /** One row, with the given RowKey, in each of the given partitions. */
    static List<String[]> oneRowEach(String rowKey, String... partitionKeys) {
        List<String[]> keys = new ArrayList<>();
        for (String pk : partitionKeys) {
            keys.add(new String[] {pk, rowKey});
        }
        return keys;
    }

    public static void assertEveryRowOnce(InMemoryTableStore store, Result result) {
        List<String> expected = store.rows("t").stream().map(r -> r.partitionKey() + "|" + r.rowKey()).toList();
        List<String> actual = result.rows().stream().map(r -> r.partitionKey() + "|" + r.rowKey()).sorted().toList();
        assertThat(actual).containsExactlyElementsOf(expected.stream().sorted().toList());
    }

    @Test
    void blogExampleWithPageSizeTwoReadsEveryRowOnce() {
        InMemoryTableStore store = table(Adversary.NONE, oneRowEach("1", "A", "B", "C", "Ca", "Cb", "D", "Da", "Daa", "E", "F"));

        Result result = LocalScan.run(store, "t", KeyRange.ALL, Strategy.PREFIX, 2, 1, null);

        assertEveryRowOnce(store, result);
        assertThat(result.rows()).hasSize(10);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 1000})
    void oddKeysAreReadExactlyOnce(int pageSize) {
        List<String[]> keys = new ArrayList<>();
        for (String pk : ODD) {
            for (String rk : ODD) {
                keys.add(new String[] {pk, rk});
            }
        }
        for (long seed = 0; seed < 20; seed++) {
            InMemoryTableStore store = table(new Adversary(seed, 0.3, 0.2, 0.5), keys);
            for (Strategy strategy : Strategy.values()) {
                Result result = LocalScan.run(store, "t", KeyRange.ALL, strategy, pageSize, 1 + (int) (seed % 3),
                        new Random(seed));
                assertEveryRowOnce(store, result);
            }
        }
    }

    @Test
    void keysWithUffffRightAfterTheChildCharacterDoNotLoop() {
        InMemoryTableStore store = table(Adversary.NONE,
                oneRowEach("r", "D", "D\uFFFF", "D\uFFFFx", "D\uFFFF\uFFFF", "E", "E\uFFFF"));
        Result result = LocalScan.run(store, "t", KeyRange.ALL, Strategy.PREFIX, 1, 1, null);
        assertEveryRowOnce(store, result);
        assertThat(result.requests()).isLessThan(40 + ScanCosts.ROOT_PIECES);
    }

    @Test
    void longSharedPrefixDoesNotMakeADeepChain() {
        String shared = "p".repeat(200);
        List<String[]> keys = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(new String[] {shared + String.format("%04d", i), "r"});
        }
        InMemoryTableStore store = table(Adversary.NONE, keys);

        Result result = LocalScan.run(store, "t", KeyRange.ALL, Strategy.PREFIX, 10, 1, null);

        assertEveryRowOnce(store, result);
        assertThat(result.maxDepth()).isLessThan(40);
    }

    @Test
    void randomTablesUnderAdversarialPagingMatchTheSortedListing() {
        Random random = new Random(42);
        String alphabet = "aAb'\uFFFF\uFFFE\uD800\uDC00z";
        for (int round = 0; round < 40; round++) {
            List<String[]> keys = new ArrayList<>();
            int partitions = 1 + random.nextInt(60);
            for (int p = 0; p < partitions; p++) {
                String pk = randomKey(random, alphabet);
                int size = 1 + random.nextInt(random.nextBoolean() ? 5 : 300);
                for (int r = 0; r < size; r++) {
                    keys.add(new String[] {pk, randomKey(random, alphabet)});
                }
            }
            InMemoryTableStore store = table(new Adversary(round, 0.3, 0.15, 0.5), keys);
            int pageSize = 1 + random.nextInt(random.nextBoolean() ? 5 : 1000);
            Result result = LocalScan.run(store, "t", KeyRange.ALL, Strategy.PREFIX, pageSize,
                    1 + random.nextInt(4), new Random(round));
            assertEveryRowOnce(store, result);
        }
    }

    static String randomKey(Random random, String alphabet) {
        StringBuilder key = new StringBuilder();
        int length = random.nextInt(6);
        for (int i = 0; i < length; i++) {
            int at = random.nextInt(alphabet.length());
            char c = alphabet.charAt(at);
            key.append(c);
            if (Character.isHighSurrogate(c)) {
                key.append('\uDC00');
            }
        }
        return key.toString().replace("\uDC00\uDC00", "\uDC00");
    }
}
