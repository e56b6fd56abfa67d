package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.scanner.Keys;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Choosing rows and columns, as a user types it: each option copies exactly the rows (and properties) one plain
 * query with the same filter returns, on a table of odd keys read with page size 7; mistakes are one line.
 */
class SelectionIT {
    static final String SOURCE = "selectsource";
    static TableStore store;
    static String cs;

    @BeforeAll
    static void table() {
        store = LocalServices.store();
        cs = LocalServices.azurite().connectionString();
        List<Row> rows = new ArrayList<>();
        int n = 0;
        for (String pk : OddKeys.KEYS) {
            for (String rk : List.of("", "'", "r\uFFFF", "z")) {
                rows.add(new Row(pk, rk, List.of(new RowProperty("Size", EdmType.INT32, n % 10),
                        new RowProperty("Kind", EdmType.STRING, n % 3 == 0 ? "book" : "it's"),
                        new RowProperty("Note", EdmType.STRING, "#" + n))));
                n++;
            }
        }
        SampleTable.write(store, SOURCE, rows, 8);
    }

    /** Every row of the table in key order, as one query with these options pages through it. */
    static List<Row> listing(String table, QueryOptions options) {
        List<Row> rows = new ArrayList<>();
        Continuation next = null;
        do {
            Page page = store.query(table, KeyRange.ALL, options, next);
            rows.addAll(page.rows());
            next = page.next();
        } while (next != null);
        return rows;
    }

    static List<Row> copied(String dest, String... options) {
        List<String> args = new ArrayList<>(List.of("copy", "--source-connection-string", cs, "--source-table", SOURCE,
                "--dest-table", dest, "--page-size", "7"));
        args.addAll(List.of(options));
        Cli.Run run = run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        return listing(dest, new QueryOptions(1000, null, null));
    }

    static List<Row> where(Predicate<Row> keep) {
        return listing(SOURCE, new QueryOptions(1000, null, null)).stream().filter(keep).toList();
    }

    @Test
    void aFilterCopiesExactlyTheRowsItsQueryReturns() {
        String filter = "Size ge 5 and (Kind eq 'it''s' or PartitionKey eq '''')";
        List<Row> expected = listing(SOURCE, new QueryOptions(1000, null, filter));
        assertThat(expected).isNotEmpty().hasSizeLessThan(where(r -> true).size());

        assertThat(copied("selectfilter", "--filter", filter)).isEqualTo(expected);
    }

    @Test
    void aSelectCopiesOnlyThePropertiesNamed() {
        List<Row> expected = listing(SOURCE, new QueryOptions(1000, List.of("Note"), null));
        assertThat(expected).allSatisfy(r -> assertThat(r.properties()).extracting(RowProperty::name).containsExactly("Note"));

        assertThat(copied("selectcolumns", "--select", "Note")).isEqualTo(expected);
    }

    @Test
    void aPartitionPrefixCopiesThePartitionsThatStartWithIt() {
        assertThat(copied("selectprefix", "--partition-prefix", "a")).isEqualTo(where(r -> r.partitionKey().startsWith("a")))
                .isNotEmpty();
        assertThat(copied("selectprefixodd", "--partition-prefix", "\uFFFF"))
                .isEqualTo(where(r -> r.partitionKey().startsWith("\uFFFF"))).isNotEmpty();
        assertThat(Keys.successor("\uFFFF")).as("a prefix with no successor is open above").isNull();
    }

    @Test
    void partitionBoundsAreHalfOpen() {
        assertThat(copied("selectbounds", "--from-partition", "'", "--to-partition", "a b"))
                .isEqualTo(where(r -> r.partitionKey().compareTo("'") >= 0 && r.partitionKey().compareTo("a b") < 0))
                .isNotEmpty();
        assertThat(copied("selectabove", "--from-partition", "z")).isEqualTo(where(r -> r.partitionKey().compareTo("z") >= 0));
    }

    @Test
    void sinceCopiesTheRowsWrittenAtOrAfterItAndTheSummaryGivesTheNextOne() {
        String table = "selectsince";
        SampleTable.write(store, table, List.of(new Row("old", "r", List.of())), 1);
        Instant boundary = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (Instant.now().isBefore(boundary.plusMillis(50))) { // the service's clock is this machine's here
            assertThat(System.nanoTime()).as("the clock moves").isLessThan(deadline);
            Thread.onSpinWait();
        }
        List<Row> recent = List.of(new Row("new", "r", List.of()), new Row("old", "s", List.of()));
        SampleTable.write(store, table, recent, 1);

        Cli.Run run = run("copy", "--source-connection-string", cs, "--source-table", table, "--dest-table", "selectsincecopy",
                "--since", boundary.toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(listing("selectsincecopy", new QueryOptions(1000, null, null))).isEqualTo(
                List.of(new Row("new", "r", List.of()), new Row("old", "s", List.of())));
        assertThat(run.out()).containsPattern("next --since:  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    }

    /**
     * A filter naming a property no row has, or a --since in the future, matches no row: exit 0 still, but one line
     * says what looks wrong, and no destination table is created for a copy that wrote nothing.
     */
    @Test
    void aSelectionThatMatchesNoRowSaysWhatLooksWrongAndCreatesNoTable() {
        String[] copy = {"copy", "--source-connection-string", cs, "--source-table", SOURCE};
        Cli.Run typo = run(with(copy, "--dest-table", "selecttypo", "--filter", "Sise lt 5 and Kind eq 'it''s eq x'"));
        assertThat(typo.exitCode()).as(typo.out() + typo.err()).isZero();
        assertThat(typo.err().lines().filter(l -> l.startsWith("warning:"))).singleElement().asString()
                .startsWith("warning: no row was copied: the filter compares Sise, which none of the first 72 rows "
                        + "of the table has (property names are case-sensitive; it has Kind, Note, PartitionKey, ")
                .endsWith("; the destination table selecttypo was not kept (this copy created it and wrote no row)");
        assertThat(store.tableExists("selecttypo")).isFalse();

        String tomorrow = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString();
        Cli.Run future = run(with(copy, "--dest-table", "selectfuture", "--since", tomorrow));
        assertThat(future.exitCode()).as(future.out() + future.err()).isZero();
        assertThat(future.err()).contains("warning: no row was copied: --since " + tomorrow + " is in the future: no "
                + "row was written after it yet; the destination table selectfuture was not kept (this copy created it and "
                + "wrote no row)");
        assertThat(store.tableExists("selectfuture")).isFalse();

        Cli.Run count = run("count", "--source-connection-string", cs, "--source-table", SOURCE, "--filter", "Sise lt 5");
        assertThat(count.exitCode()).as(count.out() + count.err()).isZero();
        assertThat(count.err()).contains("warning: no row was counted: the filter compares Sise");

        Cli.Run fine = run(with(copy, "--dest-table", "selectnone", "--filter", "Size gt 100"));
        assertThat(fine.err()).as("nothing looks wrong: only the table not created")
                .contains("warning: no row was copied; the destination table selectnone was not kept");
        assertThat(store.tableExists("selectnone")).isFalse();
    }

    @Test
    void mistakesAreOneLineBeforeAnythingIsRead() {
        String[] copy = {"copy", "--source-connection-string", cs, "--source-table", SOURCE, "--dest-table", "selectnever"};
        assertOneLine(run(with(copy, "--filter", "Size eq 1) or (Size eq 2")), 2,
                "--filter: the row filter closes a parenthesis it did not open");
        assertOneLine(run(with(copy, "--filter", "Size eqq 1")), 2, "the source refuses --filter or --select");
        assertOneLine(run(with(copy, "--select", "Note,bad name")), 2, "--select: name 2 is not a property name");
        assertOneLine(run(with(copy, "--partition-prefix", "a", "--to-partition", "b")), 2,
                "give --partition-prefix or --from-partition/--to-partition, not both");
        assertOneLine(run(with(copy, "--from-partition", "b", "--to-partition", "a")), 2,
                "--from-partition must be below --to-partition");
        assertOneLine(run(with(copy, "--since", "yesterday")), 2, "invalid value for --since (a time: ISO-8601");
        assertThat(store.tableExists("selectnever")).as("nothing was created").isFalse();
    }

    static String[] with(String[] command, String... options) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of(options));
        return args.toArray(String[]::new);
    }
}
