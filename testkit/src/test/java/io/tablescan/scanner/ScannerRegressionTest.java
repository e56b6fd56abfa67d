package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.LocalScan.Delivery;
import io.tablescan.testkit.LocalScan.Result;
import io.tablescan.testkit.LocalScan.Strategy;
import io.tablescan.testkit.LocalScan;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Replays every counter-example in scanner-regressions.txt, with both strategies and delivery orders. */
class ScannerRegressionTest {
    record Regression(String name, int pageSize, int pageBudget, Adversary adversary, List<String[]> keys) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Regression> regressions() throws IOException {
        try (InputStream in = ScannerRegressionTest.class.getResourceAsStream("/scanner-regressions.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(ScannerRegressionTest::parse).toList().stream();
        }
    }

    static Regression parse(String line) {
        String[] f = line.split(" \\| ");
        String[] a = f[3].split(",");
        Adversary adversary = new Adversary(Long.parseLong(a[0]), Double.parseDouble(a[1]), Double.parseDouble(a[2]),
                Double.parseDouble(a[3]));
        List<String[]> keys = new ArrayList<>();
        for (String pair : f[4].split(", ")) {
            int slash = pair.indexOf('/');
            keys.add(new String[] {unescape(pair.substring(0, slash)), unescape(pair.substring(slash + 1))});
        }
        return new Regression(f[0], Integer.parseInt(f[1].trim()), Integer.parseInt(f[2].trim()), adversary, keys);
    }

    static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (s.startsWith("\\u", i)) {
                out.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                out.append(s.charAt(i));
            }
        }
        return out.toString();
    }

    @ParameterizedTest
    @MethodSource("regressions")
    void everyRowExactlyOnce(Regression r) {
        for (Strategy strategy : Strategy.values()) {
            for (Delivery delivery : List.of(Delivery.DEPTH_FIRST, new Delivery(new Random(1), 0))) {
                InMemoryTableStore store = PrefixScanTest.table(r.adversary(), r.keys());
                Result result = LocalScan.run(store, "t", KeyRange.ALL, strategy,
                        new QueryOptions(r.pageSize(), null, null), r.pageBudget(), delivery);
                PrefixScanTest.assertEveryRowOnce(store, result);
                int maxKey = r.keys().stream().mapToInt(k -> k[0].length()).max().orElse(0);
                assertThat((long) result.requests()).isLessThanOrEqualTo(
                        ScanCosts.maxRequests(result.continuedPages(), result.emptyContinuedPages(), maxKey));
            }
        }
    }
}
