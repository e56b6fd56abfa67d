package io.tablescan.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.WorkItemValidator;
import io.tablescan.items.WorkItems;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.Counters;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A verify's and a mirror's partition items: each compares the keys it read with the destination's, its remainder
 * left to the next item; a verify emits no batches, a mirror emits only the rows missing or different in the
 * destination and batches of RowKeys to delete, a copy of changes only the same rows and no deletes.
 */
class ComparingPartitionQueryTest {
    /** Partition "p" of the source (25 rows) in the destination: r03 missing, r05 different, r07x and r30 extra. */
    static InMemoryTableStore destination() {
        InMemoryTableStore dest = new InMemoryTableStore(Adversary.NONE, Duration.ZERO);
        dest.createTableIfNotExists("Dest");
        for (int i = 0; i < 25; i++) {
            if (i != 3) {
                int n = i == 5 ? 500 : i;
                dest.upsert("Dest", "p", List.of(new Row("p", PartitionQueryHandlerTest.rowKey(i),
                        List.of(new RowProperty("N", EdmType.INT32, n)))));
            }
        }
        dest.upsert("Dest", "p", List.of(new Row("p", "r07x", List.of())));
        dest.upsert("Dest", "p", List.of(new Row("p", "r30", List.of())));
        dest.upsert("Dest", "q", List.of(new Row("q", "other", List.of()))); // another partition: another item's
        return dest;
    }

    static Map<String, Long> compared(long missing, long different, long extra) {
        return Map.of(Counters.MISSING, missing, Counters.DIFFERENT, different, Counters.EXTRA, extra);
    }

    static Map<String, Long> run(ScanSpec spec, List<EntityBatch> batches) {
        Accounts accounts = new Accounts(name -> null)
                .register("src", PartitionQueryHandlerTest.table(Adversary.NONE)).register("dst", destination());
        PartitionQueryHandler handler = new PartitionQueryHandler(new WorkerSettings(KafkaSettings.of("unused:9092"),
                accounts, 4, PartitionQueryHandlerTest.NO_WAIT, 1, Optional.empty()));
        Map<String, Long> counters = new java.util.HashMap<>();
        PartitionQuery item = (PartitionQuery) WorkItems.item(spec, new PartitionRange("p", null), 0);
        while (item != null) { // a chain: pages of 10, two pages an item
            ItemHandler.Result result = handler.handle(item, new ItemContext(spec));
            result.counters().forEach((name, n) -> counters.merge(name, n, Long::sum));
            result.emitted().stream().filter(EntityBatch.class::isInstance).map(EntityBatch.class::cast)
                    .forEach(batches::add);
            item = result.emitted().stream().filter(PartitionQuery.class::isInstance).map(PartitionQuery.class::cast)
                    .findFirst().orElse(null);
        }
        return counters;
    }

    @Test
    void aVerifyCountsEachDifferenceOnceAndEmitsNoBatches() {
        ScanSpec verify = ScanSpec.newBuilder(PartitionQueryHandlerTest.SPEC).setVerify(true).build();
        List<EntityBatch> batches = new java.util.ArrayList<>();
        assertThat(run(verify, batches)).isEqualTo(compared(1, 1, 2));
        assertThat(batches).isEmpty();
    }

    @Test
    void aMirrorEmitsOnlyTheRowsThatDifferAndDeletesOfTheExtraRows() {
        ScanSpec mirror = ScanSpec.newBuilder(PartitionQueryHandlerTest.SPEC).setMirror(true).build();
        List<EntityBatch> batches = new java.util.ArrayList<>();
        assertThat(run(mirror, batches)).isEqualTo(compared(1, 1, 2));
        List<EntityBatch> deletes = batches.stream().filter(b -> !b.getDeletes().isEmpty()).toList();
        assertThat(deletes).flatExtracting(EntityBatch::getDeletes).containsExactly("r07x", "r30");
        deletes.forEach(WorkItemValidator::check);
        assertThat(written(batches)).as("the missing row and the different one, not the 23 equal ones")
                .containsExactly(PartitionQueryHandlerTest.rowKey(3), PartitionQueryHandlerTest.rowKey(5));
    }

    @Test
    void aCopyOfChangesOnlyEmitsTheRowsThatDifferAndNoDeletes() {
        ScanSpec changed = ScanSpec.newBuilder(PartitionQueryHandlerTest.SPEC).setChangedOnly(true).build();
        List<EntityBatch> batches = new java.util.ArrayList<>();
        assertThat(run(changed, batches)).isEqualTo(compared(1, 1, 2));
        assertThat(batches).allMatch(b -> b.getDeletes().isEmpty());
        assertThat(written(batches)).containsExactly(PartitionQueryHandlerTest.rowKey(3),
                PartitionQueryHandlerTest.rowKey(5));
    }

    private static List<String> written(List<EntityBatch> batches) {
        return batches.stream().flatMap(b -> b.getEntities().stream()).map(e -> e.getRowKey()).toList();
    }
}
