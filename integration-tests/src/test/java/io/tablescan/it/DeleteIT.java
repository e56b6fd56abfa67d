package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.schema.ScanState;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import io.tablescan.spi.TableStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code delete} as a user types it, on Azurite, each table read before and after by the JavaScript SDK: exactly the
 * rows selected are gone and every other row is untouched, property by property; a dry run deletes nothing; a row
 * written after the scan read it is kept and counted as skipped; {@code start --delete} on a cluster whose worker is
 * killed mid-run deletes exactly the selection. The cluster test is in the release tier: in the default tier
 * {@link KillMatrixIT} kills a delete's workers and, on the same cluster, keeps a row written after it was read
 * ({@link KillCases.Delete}).
 */
class DeleteIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String cs() {
        return LocalServices.azurite().connectionString();
    }

    /** The table as the JavaScript SDK reads it: one line a row, every property, in key order. */
    static List<String> dump(String table) throws Exception {
        return FidelityIT.client("dump", table).lines().toList();
    }

    static String key(String dumped) {
        try {
            var row = JSON.readTree(dumped);
            return row.get("pk").asText() + "\u0000" + row.get("rk").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The dumped rows but those whose keys {@code deleted} selects, as they were. */
    static List<String> without(List<String> before, Predicate<String> deleted) {
        return before.stream().filter(line -> !deleted.test(key(line))).toList();
    }

    static Set<String> keys(List<Row> rows, Predicate<Row> selected) {
        return rows.stream().filter(selected).map(r -> r.partitionKey() + "\u0000" + r.rowKey())
                .collect(Collectors.toSet());
    }

    private static Cli.Run delete(String table, String... options) {
        List<String> args = new ArrayList<>(List.of("delete", "--source-connection-string", cs(), "--source-table",
                table));
        args.addAll(List.of(options));
        return run(args.toArray(String[]::new));
    }

    private static Cli.Run deleted(String table, String... options) {
        Cli.Run run = delete(table, options);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains(" completed");
        return run;
    }

    @Test
    void byPrefixAndByFilterExactlyTheSelectedRowsGoAndADryRunCountsThemFirst() throws Exception {
        List<Row> rows = SampleTable.rows(2_000);
        SampleTable.write(LocalServices.store(), "delsel", rows, 8);
        List<String> before = dump("delsel");
        assertThat(before).hasSize(2_000);

        Set<String> microsoft = keys(rows, r -> r.partitionKey().startsWith("microsoft."));
        long partitions = rows.stream().map(Row::partitionKey).filter(p -> p.startsWith("microsoft.")).distinct()
                .count();
        assertThat(microsoft).isNotEmpty();
        Cli.Run dry = deleted("delsel", "--partition-prefix", "microsoft.", "--dry-run");
        assertThat(dry.printed().getLast()).isEqualTo(String.format("dry run: %,d rows in %,d partitions would be "
                + "deleted; nothing was deleted", microsoft.size(), partitions));
        assertThat(dump("delsel")).isEqualTo(before);

        Cli.Run byPrefix = deleted("delsel", "--partition-prefix", "microsoft.", "--yes");
        assertThat(byPrefix.printed().getLast()).isEqualTo(String.format("deleted %,d rows; 0 skipped (changed since "
                + "read)", microsoft.size()));
        List<String> afterPrefix = dump("delsel");
        assertThat(afterPrefix).isEqualTo(without(before, microsoft::contains));

        Set<String> low = keys(rows, r -> !r.partitionKey().startsWith("microsoft.") && major(r) < 5);
        Cli.Run byFilter = deleted("delsel", "--filter", "Major lt 5", "--yes", "--page-size", "50");
        assertThat(byFilter.printed().getLast()).isEqualTo(String.format("deleted %,d rows; 0 skipped (changed since "
                + "read)", low.size()));
        assertThat(dump("delsel")).isEqualTo(without(afterPrefix, low::contains));
    }

    static int major(Row row) {
        return row.properties().stream().filter(p -> p.name().equals("Major")).map(RowProperty::value)
                .map(Integer.class::cast).findFirst().orElseThrow();
    }

    @Test
    void olderThanDeletesTheRowsLastWrittenBeforeItByTheServiceTimestamp() throws Exception {
        TableStore store = LocalServices.store();
        List<Row> old = SampleTable.rows(1_200);
        SampleTable.write(store, "delold", old, 8);
        long newest = read(store, "delold").stream().mapToLong(Row::timestamp).max().orElseThrow();
        Instant cut = Instant.EPOCH.plusNanos((newest + 1) * 100).plusMillis(1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Instant.now().isAfter(cut.plusMillis(2))) { // the service's clock (this machine's) past the cut
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
        List<Row> recent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Row row = old.get(i);
            recent.add(new Row("new." + (i % 7), row.rowKey() + "." + i, row.properties()));
        }
        SampleTable.write(store, "delold", recent, 8);
        assertThat(read(store, "delold")).filteredOn(r -> r.partitionKey().startsWith("new."))
                .allMatch(r -> Instant.EPOCH.plusNanos(r.timestamp() * 100).isAfter(cut));
        List<String> before = dump("delold");

        Cli.Run run = deleted("delold", "--older-than", cut.toString(), "--yes");

        assertThat(run.printed().getLast()).isEqualTo("deleted 1,200 rows; 0 skipped (changed since read)");
        assertThat(dump("delold")).isEqualTo(without(before, k -> !k.startsWith("new.")));
        // An age selects by the same Timestamp: nothing is a day old.
        assertThat(deleted("delold", "--older-than", "1d", "--dry-run").printed().getLast())
                .startsWith("dry run: 0 rows in 0 partitions would be deleted");
    }

    private static List<Row> read(TableStore store, String table) {
        List<Row> rows = new ArrayList<>();
        Continuation next = null;
        do {
            Page page = store.query(table, KeyRange.ALL, new QueryOptions(1000, List.of("Timestamp"), null), next);
            rows.addAll(page.rows());
            next = page.next();
        } while (next != null);
        return rows;
    }

    @Test
    void mistakesAreOneLineAndDeleteNothing() throws Exception {
        SampleTable.write(LocalServices.store(), "delrefused", SampleTable.rows(50), 4);
        List<String> before = dump("delrefused");

        assertOneLine(delete("delrefused", "--filter", "Major lt 5"), UserError.USAGE, "pass --yes to confirm");
        assertOneLine(delete("delrefused", "--yes"), UserError.USAGE, "delete needs a selection");
        assertOneLine(delete("delrefused", "--all", "--filter", "Major lt 5", "--yes"), UserError.USAGE,
                "a selection or --all, not both");
        assertOneLine(delete("delrefused", "--older-than", "soon", "--yes"), UserError.USAGE,
                "--older-than: 'soon' is not an age");
        assertOneLine(delete("delrefused", "--since", "2020-01-01", "--all", "--yes"), UserError.USAGE, "--since");
        assertThat(dump("delrefused")).isEqualTo(before);

        Cli.Run all = deleted("delrefused", "--all", "--yes");
        assertThat(all.printed().getLast()).isEqualTo("deleted 50 rows; 0 skipped (changed since read)");
        assertThat(dump("delrefused")).isEmpty();
    }

    /**
     * On a cluster: the copy-workers are stopped while the readers read the selection, so the delete batches wait in
     * Kafka; a selected row is then written by the JavaScript SDK, and the copy-workers started and one of them
     * killed with SIGKILL mid-run, twice. The written row is kept and counted as skipped; every other selected row
     * is gone, each counted once; the rest are untouched. Release tier: {@link KillCases.Delete} proves both on small
     * tables in the default tier.
     */
    @Test
    @Tag("release")
    void startDeleteOnAClusterKeepsARowWrittenAfterItWasReadAndSurvivesKilledWorkers() throws Exception {
        List<Row> rows = SampleTable.rows(12_000);
        SampleTable.write(LocalServices.store(), "delcluster", rows, 16);
        Set<String> selected = keys(rows, r -> major(r) < 15);
        Row changed = rows.stream().filter(r -> major(r) < 15).findFirst().orElseThrow();
        String changedKey = changed.partitionKey() + "\u0000" + changed.rowKey();
        try (CrashIT.Cluster cluster = new CrashIT.Cluster("delete-crashes")) {
            for (String copy : List.of("copy-1", "copy-2")) {
                Process process = cluster.workers.get(copy);
                process.destroyForcibly();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            Cli.Run start = Cli.run(cluster.env, "start", "--delete", "--kafka", cluster.kafka.bootstrapServers(),
                    "--source-account", "emulator", "--source-table", "delcluster", "--filter", "Major lt 15",
                    "--page-size", "200", "--yes");
            assertThat(start.exitCode()).as(start.out() + start.err()).isZero();
            String scanId = start.printed().getLast();
            // Every selected row read: its delete batch is in Kafka, committed with the read (rows count once).
            ScanAwait.until(cluster.kafka, scanId, t -> t.rowsRead() == selected.size(), Duration.ofMinutes(3));
            List<String> before = dump("delcluster");
            FidelityIT.client("put", "delcluster", JSON.writeValueAsString(java.util.Map.of("partitionKey",
                    changed.partitionKey(), "rowKey", changed.rowKey(), "Major", 99)));
            String changedLine = dump("delcluster").stream().filter(l -> key(l).equals(changedKey)).findFirst()
                    .orElseThrow();

            for (String copy : List.of("copy-1", "copy-2")) {
                cluster.workers.put(copy, cluster.children.start(copy, cluster.env, "worker", "copy"));
            }
            List<String> kills = new ArrayList<>();
            ScanTotals t = ScanAwait.until(cluster.kafka, scanId, s -> s.ended() || s.counter(Counters.DELETED) > 0,
                    Duration.ofMinutes(2));
            for (int i = 1; i <= 2 && !t.ended(); i++) {
                String victim = "copy-" + i;
                Process process = cluster.workers.get(victim);
                process.destroyForcibly(); // SIGKILL: its delete transactions open, its batches replayed elsewhere
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                kills.add(victim + " at " + t.counter(Counters.DELETED) + " deleted");
                cluster.workers.put(victim, cluster.children.start(victim, cluster.env, "worker", "copy"));
                long at = t.counter(Counters.DELETED);
                t = ScanAwait.until(cluster.kafka, scanId, s -> s.ended() || s.counter(Counters.DELETED) > at + 1_000,
                        Duration.ofMinutes(2));
            }
            t = ScanAwait.ended(cluster.kafka, scanId, Duration.ofMinutes(4));
            System.out.println("kills survived: " + kills);

            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(kills).isNotEmpty();
            assertThat(t.rowsRead()).isEqualTo(selected.size());
            assertThat(t.counter(Counters.DELETED)).isEqualTo(selected.size() - 1);
            assertThat(t.counter(Counters.SKIPPED)).isEqualTo(1);
            List<String> expected = new ArrayList<>(without(before, k -> selected.contains(k)
                    && !k.equals(changedKey)));
            expected.replaceAll(line -> key(line).equals(changedKey) ? changedLine : line);
            assertThat(dump("delcluster")).isEqualTo(expected);
        }
    }
}
