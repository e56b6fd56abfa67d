package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.spi.Row;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup set's options on Azurite: {@code --max-rate} with {@code --parallel 2} keeps the cap over the whole
 * set (the rows the service answered with, counted by a proxy in front of it, in every 10 s, as RateCapIT measures
 * a scan's cap), and {@code --kafka} builds a complete set through a broker of its own that restores equal to the
 * tables as Microsoft's JavaScript SDK reads them, leaving no topic behind; a restore's {@code --max-write-rate}
 * holds for its deletes too.
 */
class BackupSetOptionsIT {
    private static final long CAP = 600;
    private static final long WINDOW = 10_000;

    @Test
    void aCappedSetOfFourTablesTwoAtATimeKeepsTheCapOverTheWholeSet(@TempDir Path sets) throws Exception {
        var store = LocalServices.store();
        List<String> tables = List.of("bcapalpha", "bcapbeta", "bcapgamma", "bcapdelta");
        for (String table : tables) { // 12,000 rows: some 20 s at the cap (uncapped, Azurite reads them in a few)
            SampleTable.write(store, table, SampleTable.rows(3_000), 16);
        }
        try (CountingProxy proxy = CountingProxy.start(LocalServices.azurite())) {
            Cli.Run backup = Cli.run("backup", "--source-connection-string", proxy.connectionString(), "--tables",
                    String.join(",", tables), "--to", sets.toString(), "--max-rate", Long.toString(CAP),
                    "--parallel", "2");
            assertThat(backup.exitCode()).as(backup.out() + backup.err()).isZero();
            assertThat(backup.out()).contains("complete: 4 tables, 12,000 rows");

            List<long[]> all = proxy.pages();
            long first = all.stream().filter(p -> p[1] > 1).findFirst().orElseThrow()[0]; // after the tables' checks
            List<long[]> pages = all.stream().filter(p -> p[0] >= first).toList();
            long last = pages.get(pages.size() - 1)[0];
            long rows = pages.stream().mapToLong(p -> p[1]).sum();
            StringBuilder perSecond = new StringBuilder("rows read a second:");
            for (long s = first; s <= last; s += 1000) {
                perSecond.append(' ').append(RateCapIT.sum(pages, s, s + 1000));
            }
            System.out.println(perSecond);
            System.out.printf("%,d rows in %,d ms: %.0f rows/s against a cap of %d%n", rows, last - first,
                    rows * 1000.0 / Math.max(1, last - first), CAP);
            assertThat(rows).isGreaterThanOrEqualTo(12_000);
            assertThat(last - first).as("ms of reads").isGreaterThan(WINDOW + 5_000);
            for (long from = first; from + WINDOW <= last; from += 500) {
                assertThat(RateCapIT.sum(pages, from, from + WINDOW)).as("rows read in 10 s from +%d ms", from - first)
                        .isLessThanOrEqualTo(CAP * 11);
            }
            // the whole set within the cap, and near it (two tables read at once, each at half the cap)
            assertThat(rows * 1000.0 / (last - first)).as("rows/s over the set").isLessThanOrEqualTo(CAP * 1.1)
                    .isGreaterThan(CAP * 0.6);
        }
    }

    /**
     * A restore's {@code --max-write-rate} holds for its deletes too: 300 rows deleted since the full set, restored
     * from the incremental into a new table at 100 rows/s, the row writes through the import and the deletes by key
     * (answered at the proxy's end, one request each: uncapped, Azurite answers 300 in well under a second).
     */
    @Test
    void aRestoresWriteCapHoldsForItsDeletes(@TempDir Path sets) throws Exception {
        var store = LocalServices.store();
        String cs = LocalServices.azurite().connectionString();
        SampleTable.write(store, "rcapsource", SampleTable.rows(400), 16);
        Cli.Run full = Cli.run("backup", "--source-connection-string", cs, "--tables", "rcapsource", "--to",
                sets.toString());
        assertThat(full.exitCode()).as(full.out() + full.err()).isZero();
        List<Row> rows = new ArrayList<>();
        store.query("rcapsource", io.tablescan.spi.KeyRange.ALL, new io.tablescan.spi.QueryOptions(300, List.of(),
                null), null).rows().forEach(rows::add);
        for (Row row : rows) {
            assertThat(store.delete("rcapsource", row.partitionKey(), row.rowKey())).isTrue();
        }
        Cli.Run incremental = Cli.run("backup", "--source-connection-string", cs, "--tables", "rcapsource", "--to",
                sets.toString(), "--incremental", "--overlap", "0s");
        assertThat(incremental.exitCode()).as(incremental.out() + incremental.err()).isZero();

        try (CountingProxy proxy = CountingProxy.start(LocalServices.azurite())) {
            long start = System.nanoTime();
            Cli.Run restore = Cli.run("restore", "--from", sets.toString(), "--latest", "--dest-connection-string",
                    proxy.connectionString(), "--table-prefix", "rc", "--max-write-rate", "100", "--parallel", "1");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
            assertThat(restore.out()).containsPattern("restored 100 rows into rcrcapsource \\(400 row writes over \\d "
                    + "exports?, 300 rows deleted\\)");
            List<Long> deletes = proxy.deletes();
            assertThat(deletes).hasSize(300);
            long span = deletes.get(deletes.size() - 1) - deletes.get(0);
            System.out.printf("restore at 100 rows/s: %,d ms in all, its 300 deletes over %,d ms%n", millis, span);
            assertThat(span).as("ms from the first delete to the last, at 100 rows/s within 10%")
                    .isGreaterThanOrEqualTo(300 * 1000 / 110 - 500); // less the bucket's burst, a fifth of a second
            assertThat(millis).as("ms of the whole restore: 700 writes and deletes").isGreaterThan(700 * 1000 / 110);
        }
        RestTableReader rest = RestTableReader.fromConnectionString(cs);
        assertThat(TableComparer.compare(rest, "rcapsource", rest, "rcrcapsource").examples()).isEmpty();
    }

    @Test
    void aSetThroughAKafkaClusterIsCompleteRestoresEqualAndLeavesNoTopic(@TempDir Path sets) throws Exception {
        var store = LocalServices.store();
        List<String> tables = List.of("bkafkaalpha", "bkafkabeta", "bkafkagamma");
        for (String table : tables) {
            SampleTable.write(store, table, SampleTable.rows(400), 16);
        }
        String bootstrap = LocalServices.broker().bootstrapServers();
        Set<String> topicsBefore = topics(bootstrap);
        Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet(); // the cluster's topics while it runs
        var sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleWithFixedDelay(() -> {
            try {
                seen.addAll(topics(bootstrap));
            } catch (Exception e) {
                // the next sample
            }
        }, 0, 100, TimeUnit.MILLISECONDS);

        Cli.Run backup = Cli.run("backup", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--table-pattern", "bkafka*", "--to", sets.toString(), "--kafka", bootstrap, "--parallel", "2");
        sampler.shutdown();
        assertThat(sampler.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        assertThat(backup.exitCode()).as(backup.out() + backup.err()).isZero();
        assertThat(backup.out()).contains("complete: 3 tables, 1,200 rows");
        seen.removeAll(topicsBefore);
        assertThat(seen).as("the set's topics on the cluster while it ran").anyMatch(t -> t.contains("export-"));
        assertThat(topics(bootstrap)).as("topics left on the cluster").isEqualTo(topicsBefore);

        Cli.Run restore = Cli.run("restore", "--from", sets.toString(), "--latest", "--dest-connection-string",
                LocalServices.azurite().connectionString(), "--table-prefix", "rk");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        for (String table : tables) {
            List<String> restored = FidelityIT.client("dump", "rk" + table).lines().toList();
            assertThat(restored).as(table).hasSize(400).isEqualTo(FidelityIT.client("dump", table).lines().toList());
        }
    }

    private static Set<String> topics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(KafkaSettings.of(bootstrap).admin())) {
            return new TreeSet<>(admin.listTopics().names().get(60, TimeUnit.SECONDS));
        }
    }
}
