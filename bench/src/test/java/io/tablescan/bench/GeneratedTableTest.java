package io.tablescan.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.SampleTable;
import io.tablescan.spi.Row;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bench's generated table must behave like a sorted table of its rows, or the bench measures nonsense. */
class GeneratedTableTest {
    private final GeneratedTable table = new GeneratedTable(5_000);
    private final List<Row> rows = table.all();

    private static int compare(String pk, String rk, Row row) {
        int c = pk.compareTo(row.partitionKey());
        return c != 0 ? c : rk.compareTo(row.rowKey());
    }

    @Test
    void rowsAreInKeyOrderWithOneBigPartitionLast() {
        assertThat(rows).hasSize(5_000);
        for (int i = 1; i < rows.size(); i++) {
            assertThat(compare(rows.get(i - 1).partitionKey(), rows.get(i - 1).rowKey(), rows.get(i))).isNegative();
        }
        assertThat(rows.stream().filter(r -> r.partitionKey().equals(SampleTable.BIG_PARTITION))).hasSize(500);
        assertThat(rows.get(rows.size() - 1).partitionKey()).isEqualTo(SampleTable.BIG_PARTITION);
        for (Row row : rows) {
            assertThat(table.partitionNamed(row.partitionKey())).isEqualTo(table.findPartition(row.partitionKey()));
        }
        assertThat(table.partitionNamed("microsoft.extensions")).isEqualTo(-1);
    }

    @Test
    void ceilingFindsTheFirstRowAtOrAfterAnyKey() {
        Random random = new Random(1);
        for (int i = 0; i < 2_000; i++) {
            Row some = rows.get(random.nextInt(rows.size()));
            String pk = switch (random.nextInt(4)) {
                case 0 -> some.partitionKey();
                case 1 -> some.partitionKey().substring(0, random.nextInt(some.partitionKey().length() + 1));
                case 2 -> some.partitionKey() + "\uffff";
                default -> some.partitionKey().substring(0, random.nextInt(some.partitionKey().length())) + "~";
            };
            String rk = random.nextBoolean() ? "" : some.rowKey();
            int expected = 0;
            while (expected < rows.size() && compare(pk, rk, rows.get(expected)) > 0) {
                expected++;
            }
            assertThat(table.ceiling(pk, rk)).as("ceiling(%s, %s)", pk, rk).isEqualTo(expected);
        }
    }

    @Test
    void theCheckingTableCountsEveryRowOnceAndRejectsOthers() {
        CheckingTable check = new CheckingTable(table);
        rows.forEach(check::put);
        rows.subList(0, 10).forEach(check::put); // a replay
        assertThat(check.exact()).isTrue();
        check.put(SampleTable.row(rows.get(0).partitionKey(), rows.get(0).rowKey(), new Random(99)));
        assertThat(check.wrong()).isEqualTo(1);
        assertThat(new CheckingTable(table).missing()).isEqualTo(5_000);
    }
}
