package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code count} as a user types it, on Azurite, for tables of several shapes: its rows and partitions equal
 * those of one plain query with the same filter, and mistakes are one line.
 */
class CountIT {
    static TableStore store;
    static String cs;

    @BeforeAll
    static void tables() {
        store = LocalServices.store();
        cs = LocalServices.azurite().connectionString();
        store.createTableIfNotExists("countempty");
        List<Row> big = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            big.add(new Row("big", String.format("r%05d", i), List.of(new RowProperty("n", EdmType.INT32, i))));
        }
        SampleTable.write(store, "countbig", big, 8);
        List<Row> odd = new ArrayList<>();
        int n = 0;
        for (String pk : OddKeys.KEYS) {
            for (String rk : OddKeys.KEYS) {
                odd.add(new Row(pk, rk, List.of(new RowProperty("Size", EdmType.INT32, n++ % 10))));
            }
        }
        SampleTable.write(store, "countodd", odd, 8);
    }

    /** "R rows in P partitions" of one plain query over the table with this filter, keys only. */
    static String listing(String table, String filter, String prefix) {
        List<Row> rows = new ArrayList<>();
        Continuation next = null;
        do {
            Page page = store.query(table, KeyRange.ALL, new QueryOptions(1000, List.of(), filter), next);
            rows.addAll(page.rows());
            next = page.next();
        } while (next != null);
        List<Row> selected = rows.stream().filter(r -> prefix == null || r.partitionKey().startsWith(prefix)).toList();
        long partitions = selected.stream().map(Row::partitionKey).distinct().count();
        return String.format("%,d row%s in %,d partition%s", selected.size(), selected.size() == 1 ? "" : "s",
                partitions, partitions == 1 ? "" : "s");
    }

    static String counted(String table, String... options) {
        List<String> args = new ArrayList<>(List.of("count", "--source-connection-string", cs, "--source-table", table));
        args.addAll(List.of(options));
        Cli.Run run = run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains(" completed").contains("0 entity batches");
        return run.printed().getLast();
    }

    @Test
    void anEmptyTableHasNoRows() {
        assertThat(counted("countempty")).isEqualTo("0 rows in 0 partitions");
    }

    @Test
    void onePartitionReadByAChainOfItemsCountsOnce() {
        assertThat(counted("countbig", "--page-size", "100")).isEqualTo("3,000 rows in 1 partition")
                .isEqualTo(listing("countbig", null, null));
        assertThat(counted("countbig", "--page-size", "100", "--strategy", "SERIAL")).isEqualTo("3,000 rows in 1 partition");
    }

    @Test
    void oddKeysInSmallPagesCountAsOnePlainQuery() {
        assertThat(counted("countodd", "--page-size", "7")).isEqualTo(listing("countodd", null, null))
                .isEqualTo("324 rows in 18 partitions");
    }

    @Test
    void aFilterAndAPrefixCountTheRowsTheySelect() {
        String filter = "Size ge 5 and RowKey ne ''''";
        assertThat(counted("countodd", "--page-size", "7", "--filter", filter))
                .isEqualTo(listing("countodd", filter, null)).doesNotStartWith("0 ");
        assertThat(counted("countodd", "--page-size", "3", "--partition-prefix", "a"))
                .isEqualTo(listing("countodd", null, "a")).isEqualTo("72 rows in 4 partitions");
    }

    @Test
    void jsonIsTheResultAlone() {
        Cli.Run run = run("count", "--source-connection-string", cs, "--source-table", "countodd", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.printed().getLast()).matches("\\{\"scanId\":\"scan-[0-9a-f-]+\",\"table\":\"countodd\","
                + "\"state\":\"COMPLETED\",\"exact\":true,\"rows\":324,\"partitions\":18}");
        assertThat(run.err()).contains("324 rows in 18 partitions");
        assertThat(run.out()).as("the summary goes to stderr").doesNotContain("open items:");
    }

    @Test
    void mistakesAreOneLine() {
        String[] count = {"count", "--source-connection-string", cs, "--source-table", "countodd"};
        assertOneLine(run(SelectionIT.with(count, "--select", "Size")), 2, "unknown option '--select'");
        assertOneLine(run(SelectionIT.with(count, "--filter", "Size eqq 1")), 2, "the source refuses --filter");
        assertOneLine(run("count", "--source-connection-string", cs, "--source-table", "countnosuch"), 4,
                "the source table countnosuch does not exist");
        assertOneLine(run("count", "--source-table", "countodd"), 2,
                "give one of --source-connection-string and --source-account");
    }
}
