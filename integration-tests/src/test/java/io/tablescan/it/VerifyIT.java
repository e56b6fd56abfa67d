package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.runner.TableComparer;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code verify} and {@code copy --mirror} as a user types them, on Azurite: equal tables exit 0; a destination
 * with rows deleted, changed (each type, a DateTime by 100 ns and a Double by one ulp), added and a whole extra
 * partition gives exact counts, exit 7 and a report line for each; a mirror leaves the destination equal, as
 * another client (plain REST) reads it too.
 */
class VerifyIT {
    static TableStore store;
    static String cs;
    static List<Row> source;

    @BeforeAll
    static void tables() {
        store = LocalServices.store();
        cs = LocalServices.azurite().connectionString();
        source = SampleTable.rows(600);
        SampleTable.write(store, "verifysrc", source, 8);
        SampleTable.write(store, "verifysame", source, 8);
    }

    /** The source's rows sorted in key order. */
    static List<Row> sorted(List<Row> rows) {
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(Row::partitionKey).thenComparing(Row::rowKey));
        return sorted;
    }

    /**
     * Writes {@code table} as the source with: 3 rows deleted, 9 changed (one property each: every type, a type
     * changed with the value kept), 2 rows added to existing partitions and a partition of 4 rows the source lacks.
     */
    static void altered(String table) {
        List<Row> rows = sorted(source);
        List<Row> dest = new ArrayList<>(rows);
        dest.remove(rows.get(11));
        dest.remove(rows.get(201));
        dest.remove(rows.get(599));
        String[] names = {"Id", "Downloads", "Major", "Score", "Listed", "Published", "Guid", "Hash", "Major"};
        for (int i = 0; i < names.length; i++) {
            Row row = rows.get(20 + 30 * i);
            dest.set(dest.indexOf(row), new Row(row.partitionKey(), row.rowKey(), changed(row.properties(), names[i], i)));
        }
        dest.add(new Row(rows.get(50).partitionKey(), rows.get(50).rowKey() + "x", rows.get(50).properties()));
        dest.add(new Row(rows.get(300).partitionKey(), "~extra", List.of()));
        for (int i = 0; i < 4; i++) {
            dest.add(SampleTable.row("zz-extra-partition", "r" + i, new Random(i)));
        }
        SampleTable.write(store, table, dest, 8);
    }

    private static List<RowProperty> changed(List<RowProperty> properties, String name, int index) {
        List<RowProperty> out = new ArrayList<>();
        for (RowProperty p : properties) {
            if (!p.name().equals(name)) {
                out.add(p);
                continue;
            }
            Object v = p.value();
            out.add(switch (p.type()) {
                case STRING -> new RowProperty(name, EdmType.STRING, v + " ");
                case INT64 -> new RowProperty(name, EdmType.INT64, (Long) v + 1);
                case INT32 -> index == 8 ? new RowProperty(name, EdmType.INT64, (long) (Integer) v) // same value, other type
                        : new RowProperty(name, EdmType.INT32, (Integer) v + 1);
                case DOUBLE -> new RowProperty(name, EdmType.DOUBLE, Double.isNaN((Double) v) ? 0.5 : Math.nextUp((Double) v));
                case BOOLEAN -> new RowProperty(name, EdmType.BOOLEAN, !(Boolean) v);
                case DATETIME -> new RowProperty(name, EdmType.DATETIME, (Long) v + 1); // 100 ns
                case GUID -> new RowProperty(name, EdmType.GUID, new UUID(1, index).toString());
                case BINARY -> new RowProperty(name, EdmType.BINARY, new byte[] {1, 2, 3});
            });
        }
        return out;
    }

    static Cli.Run verify(String dest, String... options) {
        List<String> args = new ArrayList<>(List.of("verify", "--source-connection-string", cs, "--source-table",
                "verifysrc", "--dest-table", dest));
        args.addAll(List.of(options));
        return run(args.toArray(String[]::new));
    }

    @Test
    void equalTablesExitZero() {
        Cli.Run run = verify("verifysame", "--page-size", "50");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("equal: 600 rows compared, no differences").contains("0 entity batches");
    }

    @Test
    void everyKindOfDifferenceIsCountedExactlyAndReported() throws Exception {
        altered("verifyaltered");
        Path report = Files.createTempFile("verify", ".jsonl");
        for (String pageSize : List.of("1000", "7")) {
            Cli.Run run = verify("verifyaltered", "--page-size", pageSize, "--report", report.toString());
            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.DIFFERENT);
            assertThat(run.out()).contains("different: 3 missing, 9 different, 6 extra")
                    .contains("first extra (5 of 6):").contains("(\"zz-extra-partition\", \"r0\")");
            List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
            assertThat(lines).hasSize(18);
            assertThat(lines.stream().filter(l -> l.startsWith("{\"kind\":\"missing\"")).count()).isEqualTo(3);
            assertThat(lines.stream().filter(l -> l.startsWith("{\"kind\":\"extra\"")).count()).isEqualTo(6);
            String all = String.join("\n", lines);
            // DateTime by one tick: the 7th fraction digit, in the service's wire form.
            assertThat(all).containsPattern("\"name\":\"Published\",\"source\":\\{\"type\":\"Edm.DateTime\",\"value\":"
                    + "\"[0-9T:.-]+\\d{7}Z\"},\"destination\":\\{\"type\":\"Edm.DateTime\"")
                    .contains("\"name\":\"Major\",\"source\":{\"type\":\"Edm.Int32\"")
                    .contains("\"destination\":{\"type\":\"Edm.Int64\"")
                    .contains("\"name\":\"Score\"").contains("\"name\":\"Hash\"").contains("\"name\":\"Guid\"")
                    .contains("\"name\":\"Listed\"").contains("\"name\":\"Id\"").contains("\"name\":\"Downloads\"");
        }
        Files.deleteIfExists(report);
    }

    @Test
    void aMirrorLeavesTheDestinationEqualAndADryRunChangesNothing() throws Exception {
        altered("verifymirror");
        String[] mirror = {"copy", "--source-connection-string", cs, "--source-table", "verifysrc", "--dest-table",
            "verifymirror", "--mirror", "--page-size", "40"};
        Cli.Run dry = run(SelectionIT.with(mirror, "--dry-run"));
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).contains("the mirror would write 12 rows (3 missing, 9 different), leave 588 unchanged "
                + "and delete 6; nothing was changed");
        assertThat(verify("verifymirror").exitCode()).isEqualTo(UserError.DIFFERENT);

        Cli.Run run = run(mirror);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("mirror: 3 rows were missing, 9 different (12 written); 588 unchanged (not "
                + "written); 6 extra, 6 deleted");
        Cli.Run check = verify("verifymirror");
        assertThat(check.exitCode()).as(check.out()).isZero();
        RestTableReader rest = RestTableReader.fromConnectionString(cs);
        assertThat(TableComparer.compare(rest, "verifysrc", rest, "verifymirror").equal()).isTrue();
        assertThat(FidelityIT.client("dump", "verifymirror")).isEqualTo(FidelityIT.client("dump", "verifysrc"));
    }

    /**
     * A mirror writes only what differs: of 5,000 rows with 2 changed and 1 extra, its dry run says so, and the mirror
     * then makes exactly 2 row writes and 1 delete (the ledger's write requests), and plain REST sees a new ETag
     * on those 2 rows only. A second mirror of the now equal tables writes nothing.
     */
    @Test
    void aMirrorWritesOnlyTheRowsThatDiffer() throws Exception {
        List<Row> big = sorted(SampleTable.rows(5_000));
        SampleTable.write(store, "mirrorbigsrc", big, 8);
        List<Row> dest = new ArrayList<>(big);
        Row first = big.get(1_000);
        Row second = big.get(4_000);
        dest.set(1_000, new Row(first.partitionKey(), first.rowKey(), changed(first.properties(), "Downloads", 1)));
        dest.set(4_000, new Row(second.partitionKey(), second.rowKey(), changed(second.properties(), "Listed", 2)));
        dest.add(new Row(first.partitionKey(), first.rowKey() + "~extra", List.of()));
        SampleTable.write(store, "mirrorbigdst", dest, 8);
        RestTableReader rest = RestTableReader.fromConnectionString(cs);
        java.util.Map<String, Object> before = etags("mirrorbigdst");
        String[] mirror = {"copy", "--source-connection-string", cs, "--source-table", "mirrorbigsrc", "--dest-table",
            "mirrorbigdst", "--mirror"};

        Cli.Run dry = run(SelectionIT.with(mirror, "--dry-run"));
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).contains("the mirror would write 2 rows (0 missing, 2 different), leave 4,998 unchanged "
                + "and delete 1; nothing was changed");

        Cli.Run real = run(mirror);
        assertThat(real.exitCode()).as(real.out() + real.err()).isZero();
        assertThat(real.out()).contains("mirror: 0 rows were missing, 2 different (2 written); 4,998 unchanged (not "
                + "written); 1 extra, 1 deleted").contains(", 3 writes to the destination;");
        java.util.Map<String, Object> after = etags("mirrorbigdst");
        List<String> rewritten = after.keySet().stream().filter(k -> !after.get(k).equals(before.get(k))).toList();
        assertThat(rewritten).containsExactlyInAnyOrder(first.partitionKey() + "/" + first.rowKey(),
                second.partitionKey() + "/" + second.rowKey());
        assertThat(TableComparer.compare(rest, "mirrorbigsrc", rest, "mirrorbigdst").equal()).isTrue();
        assertThat(FidelityIT.client("dump", "mirrorbigdst")).isEqualTo(FidelityIT.client("dump", "mirrorbigsrc"));

        Cli.Run again = run(mirror);
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(again.out()).contains("mirror: 0 rows were missing, 0 different (0 written); 5,000 unchanged")
                .contains(", 0 writes to the destination;");
        assertThat(etags("mirrorbigdst")).isEqualTo(after);
    }

    /** --changed-only: a mirror that deletes nothing; the rows that differ are written, the others untouched. */
    @Test
    void aCopyOfChangesOnlyWritesWhatDiffersAndDeletesNothing() {
        altered("verifychanged");
        java.util.Map<String, Object> before = etags("verifychanged");
        Cli.Run run = run("copy", "--source-connection-string", cs, "--source-table", "verifysrc", "--dest-table",
                "verifychanged", "--changed-only", "--page-size", "40");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("changed only: 3 rows were missing, 9 different (12 written); 588 unchanged (not "
                + "written); 6 extra, kept");
        java.util.Map<String, Object> after = etags("verifychanged");
        assertThat(after.keySet().stream().filter(k -> !after.get(k).equals(before.get(k)))).hasSize(12);
        Cli.Run check = verify("verifychanged");
        assertThat(check.out()).as(check.out()).contains("different: 0 missing, 0 different, 6 extra");
        assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "verifysrc", "--dest-table",
                "verifychanged", "--changed-only", "--mirror"), 2, "--mirror goes without --changed-only");
    }

    /**
     * A nightly incremental, changes made by another client (the JavaScript SDK): the destination a full copy, then
     * in the source 3 rows updated, 2 inserted and 2 deleted; {@code copy --changed-only --since T} writes the 5
     * rows changed since T (the destination's copies of the updated rows, written before T, are compared, not
     * taken for missing and refused as conflicts), and the JavaScript SDK reads the destination equal to the
     * source plus the 2 rows deleted from it (an incremental deletes nothing); run again, it writes nothing.
     */
    @Test
    void anIncrementalCopyOfChangesWritesEveryRowChangedSince() throws Exception {
        String src = "incchangedsrc";
        String dst = "incchangeddst";
        assertThat(FidelityIT.client("fill", src)).contains("filled " + src);
        Cli.Run full = run("copy", "--source-connection-string", cs, "--source-table", src, "--dest-table", dst);
        assertThat(full.exitCode()).as(full.out() + full.err()).isZero();
        java.time.Instant since = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                .plusMillis(1);
        while (!java.time.Instant.now().isAfter(since)) { // the copy's rows written before T, the changes after
            Thread.onSpinWait();
        }
        List<String> before = FidelityIT.client("dump", src).lines().toList();
        for (String row : List.of("{\"partitionKey\":\"a\",\"rowKey\":\"000\",\"Note\":\"updated\"}",
                "{\"partitionKey\":\"b\",\"rowKey\":\"002\",\"Small\":7}",
                "{\"partitionKey\":\"zz\",\"rowKey\":\"003\",\"Note\":\"updated\"}",
                "{\"partitionKey\":\"a\",\"rowKey\":\"new\",\"Note\":\"inserted\"}",
                "{\"partitionKey\":\"new\",\"rowKey\":\"000\",\"Note\":\"inserted\"}")) {
            FidelityIT.client("put", src, row);
        }
        FidelityIT.client("delete", src, "{\"partitionKey\":\"b\",\"rowKey\":\"003\"}");
        FidelityIT.client("delete", src, "{\"partitionKey\":\"zz\",\"rowKey\":\"000\"}");
        List<String> deleted = before.stream().filter(l -> l.startsWith("{\"pk\":\"b\",\"rk\":\"003\"")
                || l.startsWith("{\"pk\":\"zz\",\"rk\":\"000\"")).toList();
        assertThat(deleted).hasSize(2);

        String[] incremental = {"copy", "--source-connection-string", cs, "--source-table", src, "--dest-table", dst,
                "--changed-only", "--since", since.toString()};
        Cli.Run run = run(incremental);

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).as(run.out()).contains("rows read:     5", "rows written:  5")
                .contains("changed only: 2 rows were missing, 3 different (5 written); 0 unchanged (not written); "
                        + "0 extra, kept").doesNotContain("conflicts").contains("next --since: ");
        List<String> expected = new ArrayList<>(FidelityIT.client("dump", src).lines().toList());
        expected.addAll(deleted);
        assertThat(FidelityIT.client("dump", dst).lines().toList()).containsExactlyInAnyOrderElementsOf(expected);

        Cli.Run again = run(incremental);
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(again.out()).as(again.out()).contains("changed only: 0 rows were missing, 0 different (0 written); "
                + "5 unchanged (not written); 0 extra, kept");
    }

    /** Each row's ETag as the Azure SDK reads it, by "PartitionKey/RowKey": a write of the row changes it. */
    private static java.util.Map<String, Object> etags(String table) {
        java.util.Map<String, Object> etags = new java.util.HashMap<>();
        new com.azure.data.tables.TableServiceClientBuilder().connectionString(cs).buildClient().getTableClient(table)
                .listEntities().forEach(e -> etags.put(e.getPartitionKey() + "/" + e.getRowKey(), e.getETag()));
        return etags;
    }

    /**
     * Rows inserted into the source while a mirror runs: none of the source's rows is deleted (the destination
     * holds every row the source had, and the mirror deletes exactly the destination's extras); an inserted row
     * is copied or not, so a verify afterwards finds rows missing at most, never extra or different ones.
     */
    @Test
    void aMirrorDuringInsertsIntoTheSourceDeletesNoSourceRow() throws Exception {
        SampleTable.write(store, "verifyinssrc", source, 8);
        altered("verifyinsdst");
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger inserted = new java.util.concurrent.atomic.AtomicInteger();
        List<Row> rows = sorted(source);
        Thread inserter = Thread.ofVirtual().start(() -> {
            Random random = new Random(3);
            while (!stop.get()) {
                int i = inserted.getAndIncrement();
                Row near = rows.get(random.nextInt(rows.size()));
                String pk = i % 2 == 0 ? near.partitionKey() : "ins-" + i;
                store.upsert("verifyinssrc", pk, List.of(SampleTable.row(pk, "~ins-" + i, random)));
            }
        });
        try {
            assertThat(io.tablescan.local.FreePorts.await(() -> inserted.get() > 20, java.time.Duration.ofSeconds(60),
                    inserter::isAlive)).isTrue();
            Cli.Run run = run("copy", "--source-connection-string", cs, "--source-table", "verifyinssrc",
                    "--dest-table", "verifyinsdst", "--mirror", "--page-size", "25");
            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            assertThat(run.out()).contains("6 extra, 6 deleted");
        } finally {
            stop.set(true);
            inserter.join();
        }
        Cli.Run check = run("verify", "--source-connection-string", cs, "--source-table", "verifyinssrc",
                "--dest-table", "verifyinsdst");
        assertThat(check.out()).as(check.out()).containsPattern("different: [\\d,]+ missing, 0 different, 0 extra|equal: ");
        java.util.Set<String> copied = new java.util.HashSet<>();
        for (Row row : TableComparer.rows(store, "verifyinsdst")) {
            copied.add(row.partitionKey() + "/" + row.rowKey());
        }
        assertThat(source).allMatch(r -> copied.contains(r.partitionKey() + "/" + r.rowKey()));
    }

    @Test
    void oddKeysInSmallPagesAreComparedExactly() {
        List<Row> odd = new ArrayList<>();
        for (String pk : OddKeys.KEYS) {
            for (String rk : OddKeys.KEYS) {
                odd.add(new Row(pk, rk, List.of(new RowProperty("n", EdmType.INT32, odd.size()))));
            }
        }
        SampleTable.write(store, "verifyoddsrc", odd, 8);
        List<Row> dest = new ArrayList<>(odd);
        dest.removeIf(r -> r.rowKey().equals("a\uFFFF")); // one row of each of the 18 partitions
        dest.add(new Row("a\uFFFF\uFFFF", "", List.of())); // a partition the source lacks, between odd ones
        SampleTable.write(store, "verifyodddst", dest, 8);
        for (String pageSize : List.of("1", "7")) {
            Cli.Run run = run("verify", "--source-connection-string", cs, "--source-table", "verifyoddsrc",
                    "--dest-table", "verifyodddst", "--page-size", pageSize);
            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.DIFFERENT);
            assertThat(run.out()).contains("different: 18 missing, 0 different, 1 extra");
        }
        Cli.Run prefix = run("verify", "--source-connection-string", cs, "--source-table", "verifyoddsrc",
                "--dest-table", "verifyodddst", "--page-size", "3", "--partition-prefix", "a");
        assertThat(prefix.out()).as(prefix.out() + prefix.err()).contains("different: 4 missing, 0 different, 1 extra");
    }

    @Test
    void mistakesAreOneLine() {
        assertOneLine(verify("verifysame", "--since", "2026-01-01"), 2, "verify takes no --since");
        assertOneLine(verify("verifysame", "--report", "/nonexistent-folder/r.jsonl"), 2, "cannot write --report");
        assertOneLine(verify("verifynosuch"), 4, "the destination table verifynosuch does not exist");
        assertOneLine(verify("VerifySrc"), 2, "the destination is the source");
        String[] copy = {"copy", "--source-connection-string", cs, "--source-table", "verifysrc", "--dest-table", "verifyx1"};
        assertOneLine(run(SelectionIT.with(copy, "--mirror", "--since", "2026-01-01")), 2, "--mirror takes no --since");
        assertOneLine(run(SelectionIT.with(copy, "--mirror", "--filter", "Major eq 1")), 2, "--mirror takes no --filter");
        assertOneLine(run(SelectionIT.with(copy, "--dry-run")), 2, "--dry-run goes with --mirror");
    }
}
