package io.tablescan.items;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.items.WorkItemValidator.InvalidItemException;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.KeyBound;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which work items are parked as impossible before any table request, and which pass. */
class WorkItemValidatorTest {
    static ScanSpec.Builder spec() {
        return ScanSpec.newBuilder().setScanId("scan-v").setSource(new TableRef("src", "Source"))
                .setDestination(new TableRef("dst", "Dest")).setPageSize(1000).setPageBudget(5)
                .setCreatedAtMillis(1L);
    }

    static ScanSpec spec(Consumer<ScanSpec.Builder> change) {
        ScanSpec.Builder builder = spec();
        change.accept(builder);
        return builder.build();
    }

    static PrefixQuery prefix(ScanSpec spec, KeyBound lower, KeyBound lowerRow, String upper) {
        return new PrefixQuery("prefix-x", spec, lower, lowerRow, upper, 0, null);
    }

    static EntityBatch batch(int rows) {
        List<Entity> entities = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            entities.add(new Entity("r" + i, List.of(), null));
        }
        return new EntityBatch("batch-x", spec().build(), "p", entities, List.of(), List.of(), List.of());
    }

    static void assertRejected(org.apache.avro.specific.SpecificRecord item, String reason) {
        assertThatThrownBy(() -> WorkItemValidator.check(item)).isInstanceOf(InvalidItemException.class)
                .hasMessageStartingWith("invalid work item: ").hasMessageContaining(reason);
    }

    @Test
    void itemsAScanProducesPass() {
        ScanSpec spec = spec().build();
        assertThatCode(() -> {
            WorkItemValidator.check(WorkItems.root(spec));
            WorkItemValidator.check(WorkItems.item(spec, new KeyRange(Bound.from("a"), Bound.after("r"), "b"), 3));
            WorkItemValidator.check(WorkItems.item(spec, new KeyRange(Bound.after(""), null), 1));
            WorkItemValidator.check(WorkItems.item(spec, new PartitionRange("", null), 1));
            WorkItemValidator.check(WorkItems.item(spec, new PartitionRange("p", Bound.after("r")), 1));
            WorkItemValidator.check(batch(1));
            WorkItemValidator.check(batch(100));
            WorkItemValidator.check(WorkItems.root(spec(b -> b.setDestination(null))));
            WorkItemValidator.check(WorkItems.root(spec(b -> b.setPageSize(1).setPageBudget(1))));
        }).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001, Integer.MAX_VALUE})
    void pageSizeOutsideOneToOneThousandIsRejected(int pageSize) {
        assertRejected(WorkItems.root(spec(b -> b.setPageSize(pageSize))), "page size must be 1 to 1000, got " + pageSize);
    }

    @Test
    void pageBudgetBelowOneIsRejected() {
        assertRejected(WorkItems.root(spec(b -> b.setPageBudget(0))), "page budget must be at least 1");
    }

    @Test
    void blankScanIdIsRejected() {
        assertRejected(WorkItems.root(spec(b -> b.setScanId(" "))), "empty scan id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"b", "c"})
    void lowerBoundNotBelowTheUpperIsRejected(String lower) {
        assertRejected(prefix(spec().build(), new KeyBound(lower, true), null, "b"), "is not below upper bound 'b'");
        assertRejected(prefix(spec().build(), new KeyBound(lower, false), null, "b"), "is not below upper bound 'b'");
    }

    @Test
    void anEmptyUpperBoundWithAnEmptyLowerIsRejected() {
        assertRejected(prefix(spec().build(), new KeyBound("", true), null, ""), "is not below upper bound ''");
    }

    @Test
    void aRowKeyBoundWithoutAnInclusivePartitionKeyBoundIsRejected() {
        assertRejected(prefix(spec().build(), null, new KeyBound("r", false), null), "a RowKey bound needs");
        assertRejected(prefix(spec().build(), new KeyBound("p", false), new KeyBound("r", false), null),
                "a RowKey bound needs");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ab", "1abc", "my-table", "my_table", "Täble", "a234567890123456789012345678901234567890123456789012345678901234"})
    void invalidTableNamesAreRejected(String table) {
        assertRejected(WorkItems.root(spec(b -> b.setSource(new TableRef("src", table)))),
                "source table name '" + table + "' is not valid");
        assertRejected(WorkItems.root(spec(b -> b.setDestination(new TableRef("dst", table)))),
                "destination table name '" + table + "' is not valid");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "Source2", "a23456789012345678901234567890123456789012345678901234567890123"})
    void validTableNamesPass(String table) {
        assertThatCode(() -> WorkItemValidator.check(WorkItems.root(spec(b -> b.setSource(new TableRef("src", table))))))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tables", "Tables", "TABLES"})
    void theReservedNameTablesIsRejected(String table) {
        assertRejected(WorkItems.root(spec(b -> b.setSource(new TableRef("src", table)))), "'" + table + "'");
        assertRejected(WorkItems.root(spec(b -> b.setDestination(new TableRef("dst", table)))), "'" + table + "'");
    }

    @Test
    void blankAccountAliasesAreRejected() {
        assertRejected(WorkItems.root(spec(b -> b.setSource(new TableRef(" ", "Source")))), "source account alias is empty");
        assertRejected(WorkItems.root(spec(b -> b.setDestination(new TableRef("", "Dest")))),
                "destination account alias is empty");
    }

    @Test
    void anUnknownButWellFormedAccountAliasIsNotTheValidatorsConcern() {
        // Whether this worker has credentials for an alias is decided by Accounts when the store is opened
        // (UnknownAccountException, see the handlers' tests): items stay valid for workers that have them.
        assertThatCode(() -> WorkItemValidator.check(WorkItems.root(spec(b -> b.setSource(new TableRef("nowhere", "Table1"))))))
                .doesNotThrowAnyException();
    }

    static io.tablescan.schema.SinkRef sink(String type, String account, String target) {
        return io.tablescan.schema.SinkRef.newBuilder().setType(type).setAccount(account).setTarget(target).build();
    }

    @Test
    void aNamedSinkNeedsATypeAndATableSinkAValidTable() {
        assertRejected(WorkItems.root(spec(b -> b.setSink(sink(" ", null, "x")))), "sink type is empty");
        assertRejected(WorkItems.root(spec(b -> b.setSink(sink("table", null, "Dest")))), "sink account alias is empty");
        assertRejected(WorkItems.root(spec(b -> b.setSink(sink("table", "dst", "my-table")))),
                "sink table name 'my-table' is not valid");
        assertThatCode(() -> {
            WorkItemValidator.check(WorkItems.root(spec(b -> b.setSink(sink("table", "dst", "Dest")))));
            // Other types' targets are theirs to judge: a folder, a topic, anything.
            WorkItemValidator.check(WorkItems.root(spec(b -> b.setDestination(null).setSink(sink("count", null, "a/b c")))));
        }).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 101})
    void entityBatchesOutsideOneToOneHundredRowsAreRejected(int rows) {
        assertRejected(batch(rows), "an entity batch holds 1 to 100 rows, got " + rows);
    }

    @Test
    void aBatchOrPartitionQueryWithAnInvalidSpecIsRejected() {
        ScanSpec bad = spec(b -> b.setPageSize(0));
        assertRejected(new EntityBatch("batch-x", bad, "p", List.of(new Entity("r", List.of(), null)), List.of(), List.of(), List.of()), "page size");
        assertRejected(WorkItems.item(bad, new PartitionRange("p", null), 1), "page size");
    }

    @Test
    void recordsThatAreNotWorkItemsAreRejected() {
        ItemCounts zero = new ItemCounts(0, 0, 0);
        ScanEvent event = ScanEvent.newBuilder().setScanId("scan-v").setTimeMillis(1).setEmitted(zero).setDone(zero)
                .setFailed(zero).build();
        assertRejected(event, "not a work item: io.tablescan.schema.ScanEvent");
    }
}
