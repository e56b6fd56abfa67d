package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Copies through a real embedded KRaft broker and Azurite, with the three workers in this JVM. */
class PipelineIT {
    static final TableStore STORE = LocalServices.store();

    static CopyRun.Outcome copy(String source, String destination, int pageSize, ScanStrategy strategy) {
        Accounts accounts = new Accounts(name -> null).register("azurite", STORE);
        var spec = ScanSpecs.copy().from(new TableRef("azurite", source)).to(new TableRef("azurite", destination))
                .pageSize(pageSize).strategy(strategy).build();
        return CopyRun.run(CopyRun.settings(KafkaSettings.of(LocalServices.broker().bootstrapServers()), accounts,
                System.getenv()), spec, RunOptions.defaults().withTimeout(Duration.ofMinutes(5)));
    }

    static void assertExactCopy(String source, String destination, long rows, CopyRun.Outcome outcome) {
        ScanTotals totals = outcome.totals();
        assertThat(totals.complete()).as("scan complete").isTrue();
        assertThat(totals.itemsFailed()).isZero();
        assertThat(totals.rowsRead()).isEqualTo(rows);
        assertThat(totals.rowsWritten()).isEqualTo(rows);
        assertThat(totals.itemsDone()).isEqualTo(totals.itemsEmitted());
        TableComparer.Result check = TableComparer.compare(STORE, source, STORE, destination);
        assertThat(check.examples()).isEmpty();
        assertThat(check.equal()).isTrue();
        assertThat(check.sourceRows()).isEqualTo(rows);
    }

    @Test
    void blogExampleWithPageSizeTwoCopiesEveryRowOnce() {
        List<Row> rows = new ArrayList<>();
        for (String pk : new String[] {"A", "B", "C", "Ca", "Cb", "D", "Da", "Daa", "E", "F"}) {
            rows.add(new Row(pk, "1", List.of(new RowProperty("v", EdmType.STRING, pk))));
        }
        SampleTable.write(STORE, "blogsource", rows, 4);

        CopyRun.Outcome outcome = copy("blogsource", "blogcopy", 2, ScanStrategy.PREFIX);

        assertExactCopy("blogsource", "blogcopy", 10, outcome);
    }

    @Tag("release") // default tier: StartTogetherIT's table has one big partition; the property test, partitions of 1 to 3,000 rows
    @Test
    void twentyThousandRowsInPartitionsOfVeryDifferentSizes() {
        List<Row> rows = new ArrayList<>(SampleTable.rows(16_000));
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 4_000; i++) {
            rows.add(SampleTable.row("huge", String.format("%06d", i), random)); // one partition of 4,000 rows
        }
        SampleTable.write(STORE, "bigsource", rows, 16);

        CopyRun.Outcome outcome = copy("bigsource", "bigcopy", 1000, ScanStrategy.PREFIX);

        assertExactCopy("bigsource", "bigcopy", 20_000, outcome);
        assertThat(outcome.totals().done(ItemKind.PARTITION_QUERY)).as("partition queries").isPositive();
    }

    @Test
    void everyEdmTypeAndOddKeysAreCopiedExactly() {
        String[] keys = OddKeys.KEYS;
        List<Row> rows = new ArrayList<>();
        for (String pk : keys) {
            for (String rk : keys) {
                rows.add(new Row(pk, rk, List.of(
                        new RowProperty("s", EdmType.STRING, "x'" + pk),
                        new RowProperty("i32", EdmType.INT32, -7),
                        new RowProperty("i64", EdmType.INT64, Long.MIN_VALUE),
                        new RowProperty("whole", EdmType.DOUBLE, 3.0),
                        new RowProperty("nan", EdmType.DOUBLE, Double.NaN),
                        new RowProperty("inf", EdmType.DOUBLE, Double.NEGATIVE_INFINITY),
                        new RowProperty("b", EdmType.BOOLEAN, false),
                        new RowProperty("t", EdmType.DATETIME, 16_000_000_000_000_001L),
                        new RowProperty("g", EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
                        new RowProperty("bin", EdmType.BINARY, new byte[] {9, 8, 7}))));
            }
        }
        SampleTable.write(STORE, "oddsource", rows, 8);

        CopyRun.Outcome outcome = copy("oddsource", "oddcopy", 3, ScanStrategy.PREFIX);

        assertExactCopy("oddsource", "oddcopy", rows.size(), outcome);
    }

    @Test
    void serialStrategyCopiesTheSameRows() {
        SampleTable.write(STORE, "serialsource", SampleTable.rows(3_000), 8);

        CopyRun.Outcome outcome = copy("serialsource", "serialcopy", 500, ScanStrategy.SERIAL);

        assertExactCopy("serialsource", "serialcopy", 3_000, outcome);
        assertThat(outcome.totals().done(ItemKind.PARTITION_QUERY)).as("the serial chain hands off no partitions").isZero();
    }
}
