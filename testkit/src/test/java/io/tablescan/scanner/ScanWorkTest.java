package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.KeyRange;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.LocalScan.Result;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** What the prefix scan costs against the serial scan, for a few table shapes; the figures go to the log. */
class ScanWorkTest {
    record Shape(String name, List<String[]> keys) {}

    static Shape packages(int rows) {
        Random random = new Random(1);
        String[] owners = {"microsoft", "system", "newtonsoft", "serilog", "azure", "amazon", "google", "nunit"};
        String[] words = {"extensions", "data", "core", "json", "logging", "http", "storage", "client"};
        List<String[]> keys = new ArrayList<>();
        for (int p = 0; keys.size() < rows; p++) {
            String id = owners[random.nextInt(owners.length)] + "." + words[random.nextInt(words.length)] + "." + p;
            for (int v = 1 + random.nextInt(8); v > 0 && keys.size() < rows; v--) {
                keys.add(new String[] {id, "1." + v + ".0"});
            }
        }
        return new Shape("package ids, 1-8 versions each", keys);
    }

    static Shape generated(String name, int rows, IntFunction<String[]> key) {
        List<String[]> keys = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            keys.add(key.apply(i));
        }
        return new Shape(name, keys);
    }

    @Test
    void prefixScanCostsAFewTimesTheSerialRequestsAndStaysWithinItsBound() {
        Random random = new Random(2);
        List<Shape> shapes = List.of(
                packages(20_000),
                generated("one partition of 20,000 rows", 20_000, i -> new String[] {"big", String.format("%06d", i)}),
                generated("20,000 single-row partitions, random keys", 20_000,
                        i -> new String[] {Long.toString(random.nextLong() & Long.MAX_VALUE, 36), "r"}),
                generated("1,000 partitions of 20 rows sharing a 200-char prefix", 20_000,
                        i -> new String[] {"p".repeat(200) + String.format("%04d", i / 20), Integer.toString(i % 20)}));
        for (Shape shape : shapes) {
            InMemoryTableStore store = PrefixScanTest.table(InMemoryTableStore.Adversary.NONE, shape.keys());
            Result prefix = LocalScan.run(store, "t", KeyRange.ALL, Strategy.PREFIX, 1000, 5, null);
            Result serial = LocalScan.run(store, "t", KeyRange.ALL, Strategy.SERIAL, 1000, 5, null);
            int maxKey = shape.keys().stream().mapToInt(k -> k[0].length()).max().orElse(0);
            long bound = ScanCosts.maxRequests(prefix.continuedPages(), prefix.emptyContinuedPages(), maxKey);
            System.out.printf("SHAPE %-55s rows %,d: prefix %,d requests in %,d items (deepest chain %d), "
                    + "serial %,d requests; bound %,d%n", shape.name(), shape.keys().size(), prefix.requests(),
                    prefix.items(), prefix.maxDepth(), serial.requests(), bound);
            PrefixScanTest.assertEveryRowOnce(store, prefix);
            PrefixScanTest.assertEveryRowOnce(store, serial);
            assertThat((long) prefix.requests()).isLessThanOrEqualTo(bound);
            assertThat(serial.requests()).isLessThanOrEqualTo(shape.keys().size() / 1000 + 1);
        }
    }

    @Test
    void depthDoesNotGrowWithTheLengthOfASharedPrefix() {
        int base = -1;
        for (int length : new int[] {0, 50, 200, 800}) {
            List<String[]> keys = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                keys.add(new String[] {"q".repeat(length) + String.format("%04d", i), "r"});
            }
            InMemoryTableStore store = PrefixScanTest.table(InMemoryTableStore.Adversary.NONE, keys);
            Result result = LocalScan.run(store, "t", KeyRange.ALL, Strategy.PREFIX, 10, 5, null);
            System.out.printf("DEPTH shared prefix %d chars: deepest chain %d, %d items, %d requests%n", length,
                    result.maxDepth(), result.items(), result.requests());
            PrefixScanTest.assertEveryRowOnce(store, result);
            if (base < 0) {
                base = result.maxDepth();
            }
            // at most a logarithmic number of extra levels, far from one level per character
            assertThat(result.maxDepth()).isLessThanOrEqualTo(base + 2 * (32 - Integer.numberOfLeadingZeros(length)));
        }
    }
}
