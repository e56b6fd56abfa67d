package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.LocalScan;
import io.tablescan.testkit.LocalScan.Delivery;
import io.tablescan.testkit.LocalScan.Strategy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --since}'s filter on the service's Timestamp, on the in-memory service with adversarial paging: a scan reads
 * exactly the rows written at or after the time, rows rewritten since included, as the plain query lists them.
 */
class SinceScanTest {
    static final DateTimeFormatter SERVICE_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 1000})
    void aScanSinceATimeReadsExactlyTheRowsWrittenFromThen(int pageSize) {
        for (long seed = 0; seed < 8; seed++) {
            InMemoryTableStore store = new InMemoryTableStore(new Adversary(seed, 0.3, 0.2, 0.5), Duration.ZERO);
            store.createTableIfNotExists("t");
            Random random = new Random(seed);
            List<String> before = new ArrayList<>();
            for (String pk : PrefixScanTest.ODD) {
                for (String rk : List.of("", "a", "\uFFFF")) {
                    store.upsert("t", pk, List.of(new Row(pk, rk, List.of())));
                    before.add(pk + "|" + rk);
                }
            }
            Instant since = Instant.now().plusMillis(1); // later than every write so far, whose times follow the clock
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!Instant.now().isAfter(since) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            List<String> after = new ArrayList<>();
            for (String pk : PrefixScanTest.ODD) {
                String rk = random.nextBoolean() ? "a" : "b"; // "a" rewrites an earlier row, "b" is new
                store.upsert("t", pk, List.of(new Row(pk, rk, List.of())));
                after.add(pk + "|" + rk);
            }
            String filter = "Timestamp ge datetime'" + SERVICE_TIME.format(since) + "'";

            for (Strategy strategy : Strategy.values()) {
                LocalScan.Result result = LocalScan.run(store, "t", KeyRange.ALL, strategy,
                        new QueryOptions(pageSize, null, filter), 1 + (int) (seed % 3), new Delivery(new Random(seed), 0.2));
                List<String> read = result.originalRows().stream().map(r -> r.partitionKey() + "|" + r.rowKey()).sorted().toList();
                assertThat(read).as("%s, page size %d, seed %d", strategy, pageSize, seed)
                        .containsExactlyElementsOf(after.stream().sorted().toList());
                assertThat(result.originalRows()).allSatisfy(r -> assertThat(r.properties()).as("Timestamp is the service's,"
                        + " not a property of the row").isEmpty());
            }
            assertThat(before).as("the earlier rows are still there").hasSize(PrefixScanTest.ODD.length * 3);
        }
    }
}
