package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.control.ScanStarter;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.MirrorJob;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code copy --write-mode} as a user types it, on Azurite, into a destination holding 3 of the source's rows with
 * other values and a property of their own, and 1 equal row: replace overwrites them, merge keeps their own
 * property, insert leaves them and reports them (exit 7), skip-existing leaves them silently; values read back by
 * the JavaScript SDK. And a mirror during which that SDK changes a destination row and creates a missing one after
 * the comparison read them: neither is overwritten, both are counted as conflicts.
 */
class WriteModeIT {
    static TableStore store;
    static String cs;

    @BeforeAll
    static void tables() {
        store = LocalServices.store();
        cs = LocalServices.azurite().connectionString();
        store.createTableIfNotExists("wmsrc");
        for (String pk : List.of("a", "b")) {
            store.upsert("wmsrc", pk, source(pk));
        }
    }

    static List<Row> source(String pk) {
        return IntStream.range(0, 20).mapToObj(i -> row(pk, i, "v" + i)).toList();
    }

    static Row row(String pk, int i, String value) {
        return new Row(pk, String.format("r%03d", i), List.of(new RowProperty("V", EdmType.STRING, value),
                new RowProperty("N", EdmType.INT32, i)));
    }

    /** A destination with rows a/r001, a/r002 and b/r003 of other values and a property Keep, and a/r004 equal. */
    static void destination(String table) {
        store.createTableIfNotExists(table);
        for (String[] key : new String[][] {{"a", "1"}, {"a", "2"}, {"b", "3"}}) {
            int i = Integer.parseInt(key[1]);
            store.upsert(table, key[0], List.of(new Row(key[0], String.format("r%03d", i), List.of(
                    new RowProperty("V", EdmType.STRING, "theirs"), new RowProperty("Keep", EdmType.STRING, "kept")))));
        }
        store.upsert(table, "a", List.of(row("a", 4, "v4")));
    }

    static Cli.Run copy(String table, String mode) {
        return run("copy", "--source-connection-string", cs, "--source-table", "wmsrc", "--dest-table", table,
                "--write-mode", mode, "--page-size", "7");
    }

    /** The destination's row a/r001 as the JavaScript SDK reads it, and its row count. */
    static String held(String table, String pk, String rk, int rows) throws Exception {
        List<String> dump = FidelityIT.client("dump", table).lines().toList();
        assertThat(dump).hasSize(rows);
        return dump.stream().filter(l -> l.startsWith("{\"pk\":\"" + pk + "\",\"rk\":\"" + rk + "\"")).findFirst()
                .orElseThrow();
    }

    @Test
    void replaceOverwritesAndMergeKeepsTheirProperties() throws Exception {
        destination("wmreplace");
        Cli.Run replace = copy("wmreplace", "replace");
        assertThat(replace.exitCode()).as(replace.out() + replace.err()).isZero();
        assertThat(replace.err()).contains("already holds rows: rows with the source's keys are replaced");
        assertThat(held("wmreplace", "a", "r001", 40)).contains("\"V\":[null,\"v1\"]").doesNotContain("Keep");

        destination("wmmerge");
        Cli.Run merge = copy("wmmerge", "merge");
        assertThat(merge.exitCode()).as(merge.out() + merge.err()).isZero();
        assertThat(merge.out()).contains("rows written:  40");
        assertThat(held("wmmerge", "b", "r003", 40)).contains("\"V\":[null,\"v3\"]").contains("\"Keep\":[null,\"kept\"]");
    }

    @Test
    void insertReportsTheRowsItLeftAndSkipExistingLeavesThemSilently() throws Exception {
        destination("wminsert");
        Cli.Run insert = copy("wminsert", "insert");
        assertThat(insert.exitCode()).as(insert.out() + insert.err()).isEqualTo(UserError.DIFFERENT);
        assertThat(insert.err()).as("no warning that rows are replaced").doesNotContain("already holds rows");
        assertThat(insert.out()).contains("write mode insert: 37 written (or found equal); 3 held other values in "
                + "the destination, left as they were (exit 7)");
        assertThat(held("wminsert", "a", "r002", 40)).contains("\"V\":[null,\"theirs\"]").contains("Keep");
        assertThat(held("wminsert", "a", "r005", 40)).contains("\"V\":[null,\"v5\"]");

        destination("wmskip");
        Cli.Run skip = copy("wmskip", "skip-existing");
        assertThat(skip.exitCode()).as(skip.out() + skip.err()).isZero();
        assertThat(skip.out()).contains("write mode skip-existing: 37 written (or found equal); 3 held other values");
        assertThat(held("wmskip", "b", "r003", 40)).contains("\"V\":[null,\"theirs\"]").contains("Keep");

        assertOneLine(copy("wmskip", "upsert"), UserError.USAGE, "unknown write mode 'upsert' (one of replace, "
                + "merge, insert, skip-existing)");
        assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "wmsrc", "--dest-table",
                "wmskip", "--mirror", "--write-mode", "insert"), UserError.USAGE, "--write-mode goes with a copy");
    }

    /**
     * A mirror whose destination an independent client changes between the comparison's read and the writes: the
     * JavaScript SDK changes a/r001 (different: to be overwritten), creates a/r005 (missing: to be inserted) and
     * changes the extra row a/r099 (to be deleted) just before the copy-worker's first write or delete.
     */
    @Test
    void aMirrorNeitherOverwritesNorDeletesRowsChangedAfterItsComparisonRead() throws Exception {
        store.createTableIfNotExists("wmmirrorsrc");
        store.upsert("wmmirrorsrc", "a", source("a"));
        store.createTableIfNotExists("wmmirror");
        List<Row> dest = new ArrayList<>(source("a"));
        dest.set(1, row("a", 1, "stale"));
        dest.set(2, row("a", 2, "stale"));
        dest.remove(5);
        dest.remove(5); // r006
        dest.add(row("a", 99, "extra"));
        store.upsert("wmmirror", "a", dest);
        AtomicBoolean written = new AtomicBoolean();
        AtomicBoolean deleted = new AtomicBoolean();
        TableStore hooked = new Hook(store, () -> {
            if (!written.getAndSet(true)) {
                js("{\"partitionKey\":\"a\",\"rowKey\":\"r001\",\"V\":\"theirs\"}");
                js("{\"partitionKey\":\"a\",\"rowKey\":\"r005\",\"V\":\"created meanwhile\"}");
            }
        }, () -> {
            if (!deleted.getAndSet(true)) {
                js("{\"partitionKey\":\"a\",\"rowKey\":\"r099\",\"V\":\"theirs\"}");
            }
        });
        String bootstrap = LocalServices.broker().bootstrapServers();
        ScanSpec spec = ScanSpecs.of(Jobs.named(MirrorJob.NAME), Map.of()).from(new TableRef("src", "wmmirrorsrc"))
                .to(new TableRef("dst", "wmmirror")).pageSize(50).build();
        ScanTotals t;
        try (LocalPipeline pipeline = LocalPipeline.start(WorkerSettings.local(bootstrap,
                new Accounts(n -> null).register("src", store).register("dst", hooked)))) {
            ScanStarter.start(KafkaSettings.of(bootstrap), spec);
            t = ScanAwait.ended(KafkaSettings.of(bootstrap), spec.getScanId(), Duration.ofMinutes(2));
        }
        assertThat(t.state()).isEqualTo(ScanState.COMPLETED);
        assertThat(t.counter(Counters.CONFLICTS)).isEqualTo(2);
        assertThat(t.rowsWritten()).isEqualTo(2); // r002, r006
        assertThat(t.counter(Counters.SKIPPED)).isEqualTo(1);
        assertThat(t.counter(Counters.DELETED)).isZero();
        assertThat(held("wmmirror", "a", "r001", 21)).contains("\"V\":[null,\"theirs\"]");
        assertThat(held("wmmirror", "a", "r005", 21)).contains("created meanwhile");
        assertThat(held("wmmirror", "a", "r099", 21)).contains("\"V\":[null,\"theirs\"]");
        assertThat(held("wmmirror", "a", "r002", 21)).contains("\"V\":[null,\"v2\"]");
        assertThat(held("wmmirror", "a", "r006", 21)).contains("\"V\":[null,\"v6\"]");
    }

    private static void js(String entity) {
        try {
            FidelityIT.client("put", "wmmirror", entity);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The destination's store, running {@code beforeWrite} before each conditional write and delete transaction. */
    private record Hook(TableStore store, Runnable beforeWrite, Runnable beforeDelete) implements TableStore {
        @Override
        public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
            return store.query(table, query, options, from);
        }

        @Override
        public void upsert(String table, String partitionKey, List<Row> rows) {
            store.upsert(table, partitionKey, rows);
        }

        @Override
        public Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
            beforeWrite.run();
            return store.writeIfUnchanged(table, partitionKey, rows, etags);
        }

        @Override
        public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
            beforeDelete.run();
            return store.deleteIfUnchanged(table, partitionKey, rows);
        }

        @Override
        public void createTableIfNotExists(String table) {
            store.createTableIfNotExists(table);
        }

        @Override
        public boolean tableExists(String table) {
            return store.tableExists(table);
        }
    }
}
