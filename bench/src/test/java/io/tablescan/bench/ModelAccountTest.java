package io.tablescan.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.azure.ODataFilter;
import io.tablescan.azure.RestTableReader;
import io.tablescan.azure.WireForm;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.InMemoryTableStore;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The model account over HTTP, reached by tablescan's REST adapter and by a plain HTTP reader. */
class ModelAccountTest {
    private final GeneratedTable table = new GeneratedTable(3_000);
    private final InMemoryTableStore memory = new InMemoryTableStore();
    private final CheckingTable copy = new CheckingTable(table);

    ModelAccountTest() {
        memory.attach("source", table);
        memory.attach("copy", copy);
    }

    @Test
    void aCopyThroughKafkaAndTheModelAccountIsExact() {
        try (ModelAccount account = ModelAccount.start(memory); EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            TableStore rest = AzureTableStore.fromConnectionString(account.connectionString());
            Accounts accounts = new Accounts(alias -> null).register("source", rest).register("destination", rest);

            var measured = BenchCommand.copyThroughKafka(broker, accounts, "prefix", "copy", 8, 8);

            assertThat(measured.totals().complete()).isTrue();
            assertThat(measured.totals().rowsWritten()).isEqualTo(3_000);
            assertThat(copy.missing()).isZero();
            assertThat(copy.wrong()).isZero();
            assertThat(memory.requests()).isGreaterThan(measured.totals().requests() / 2);
        }
    }

    @Test
    void aPlainHttpReaderSeesEverySourceValueInTheServicesWireForm() {
        try (ModelAccount account = ModelAccount.start(memory)) {
            Iterator<RestTableReader.WireRow> read = RestTableReader.fromConnectionString(account.connectionString())
                    .rows("source");
            List<Row> expected = table.all();
            int n = 0;
            while (read.hasNext()) {
                RestTableReader.WireRow got = read.next();
                Row want = expected.get(n++);
                assertThat(got.partitionKey()).isEqualTo(want.partitionKey());
                assertThat(got.rowKey()).isEqualTo(want.rowKey());
                Map<String, RestTableReader.WireValue> values = new TreeMap<>();
                for (RowProperty p : want.properties()) {
                    if (p.value() != null) {
                        values.put(p.name(), new RestTableReader.WireValue(wireType(p), WireForm.text(p)));
                    }
                }
                assertThat(got.properties()).as(want.toString()).isEqualTo(values);
            }
            assertThat(n).isEqualTo(3_000); // three pages of 1,000 and their continuations
        }
    }

    @Test
    void tablesAreCreatedAndRowsUpsertedAndDeletedInBatches() {
        try (ModelAccount account = ModelAccount.start(memory)) {
            TableStore rest = AzureTableStore.fromConnectionString(account.connectionString());
            assertThat(rest.tableExists("scratch")).isFalse();
            rest.createTableIfNotExists("scratch");
            rest.createTableIfNotExists("scratch"); // 409, taken as "exists"
            assertThat(rest.tableExists("scratch")).isTrue();
            List<Row> rows = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                rows.add(new Row("p'1", "r" + r, table.row(0, 0).properties().stream().filter(p -> p.value() != null)
                        .toList()));
            }
            rest.upsert("scratch", "p'1", rows);
            rest.upsert("scratch", "p'1", List.of(rows.get(0)));
            assertThat(memory.rows("scratch")).isEqualTo(rows);

            List<TableStore.Version> versions = List.of(new TableStore.Version("r0", null), new TableStore.Version("r1", null));
            assertThat(rest.deleteIfUnchanged("scratch", "p'1", versions)).isNull();
            assertThat(memory.rows("scratch")).containsExactly(rows.get(2));
            assertThat(rest.deleteIfUnchanged("scratch", "p'1", versions)).isEqualTo(new TableStore.Refusal(0, true));
            assertThat(rest.delete("scratch", "p'1", "r2")).isTrue();
            assertThat(rest.delete("scratch", "p'1", "r2")).isFalse();
        }
    }

    @Test
    void theScannersFiltersAreReadBackIntoTheirQueries() {
        List<ScanQuery> queries = List.of(new KeyRange(Bound.from("a'b"), "m"),
                new KeyRange(Bound.after("a"), null), new KeyRange(null, "z z"),
                new KeyRange(Bound.from("k"), Bound.after("r 1"), "q"), new KeyRange(Bound.from("k"), Bound.from("r"), null),
                new PartitionRange("p", null), new PartitionRange("p", Bound.after("x")));
        for (ScanQuery query : queries) {
            for (String rowFilter : new String[] {null, "Major lt 5 and (Listed eq true)"}) {
                String filter = ODataFilter.of(query, rowFilter);
                if (filter == null) {
                    continue;
                }
                assertThat(ModelAccount.parseFilter(filter)).as(filter).isEqualTo(new ModelAccount.Filter(query, rowFilter));
            }
        }
        // Any other shape: all of it a row filter over the whole table.
        assertThat(ModelAccount.parseFilter("RowKey eq 'x'")).isEqualTo(new ModelAccount.Filter(KeyRange.ALL, "RowKey eq 'x'"));
    }

    /** The type a plain reader gives a value: its annotation, else the JSON's own (String, Int32, Boolean). */
    private static String wireType(RowProperty p) {
        String annotated = WireForm.odataType(p.type());
        return annotated != null ? annotated : switch (p.type()) {
            case INT32 -> "Edm.Int32";
            case BOOLEAN -> "Edm.Boolean";
            default -> "Edm.String";
        };
    }
}
