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
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
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
        return run(spec, batches, PartitionQueryHandlerTest.table(Adversary.NONE), destination());
    }

    static Map<String, Long> run(ScanSpec spec, List<EntityBatch> batches, InMemoryTableStore source,
            InMemoryTableStore dest) {
        Accounts accounts = new Accounts(name -> null).register("src", source).register("dst", dest);
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

    /**
     * An incremental: the destination a copy of partition "p", then in the source r05 and r12 updated, r30 and r31
     * inserted and r07 deleted; a copy of changes only since then compares the 4 rows --since selects with the rows
     * the destination holds under their keys (written before --since, so its filter would not select them): 2
     * missing, inserted; 2 different, replaced if unchanged since read (their ETags); nothing extra, nothing deleted.
     */
    @Test
    void aCopyOfChangesSinceATimeComparesWithTheDestinationsRowsUnderTheirKeys() {
        InMemoryTableStore source = PartitionQueryHandlerTest.table(Adversary.NONE);
        InMemoryTableStore dest = new InMemoryTableStore(new Adversary(7, 0.3, 0.2, 0.5), Duration.ZERO);
        dest.createTableIfNotExists("Dest");
        source.rows("Source").stream().filter(r -> r.partitionKey().equals("p"))
                .forEach(r -> dest.upsert("Dest", "p", List.of(r)));
        Instant since = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
        while (!Instant.now().isAfter(since)) { // the destination's rows written before it, the changes after
            Thread.onSpinWait();
        }
        PartitionQueryHandlerTest.put(source, new Row("p", "r05", List.of(new RowProperty("N", EdmType.INT32, 500))));
        PartitionQueryHandlerTest.put(source, new Row("p", "r12", List.of(new RowProperty("N", EdmType.INT32, 1200))));
        PartitionQueryHandlerTest.put(source, new Row("p", "r30", List.of(new RowProperty("N", EdmType.INT32, 30))));
        PartitionQueryHandlerTest.put(source, new Row("p", "r31", List.of()));
        source.delete("Source", "p", "r07");
        ScanSpec changed = ScanSpec.newBuilder(PartitionQueryHandlerTest.SPEC).setChangedOnly(true)
                .setRowFilter("Timestamp ge datetime'" + DateTimeFormatter.ISO_INSTANT.format(since) + "'").build();
        List<EntityBatch> batches = new java.util.ArrayList<>();

        assertThat(run(changed, batches, source, dest)).isEqualTo(compared(2, 2, 0));
        assertThat(batches).allMatch(b -> b.getDeletes().isEmpty());
        assertThat(written(batches)).containsExactly("r05", "r12", "r30", "r31");
        assertThat(batches.stream().flatMap(b -> b.getWriteEtags().stream()).map(e -> e != null))
                .as("r05 and r12 replaced if unchanged, r30 and r31 inserted").containsExactly(true, true, false, false);
    }

    /**
     * A verify through a filter (N ge 20) compares the rows it selects in either table with the other table's row
     * under the same keys: r21 (the destination's value not selected) and r03 (only the destination's selected) are
     * different, not missing or extra; r24 missing; r40 extra; r41, extra but not selected, is not counted.
     */
    @Test
    void aVerifyThroughAFilterComparesTheRowsItSelectsInEitherTable() {
        InMemoryTableStore source = PartitionQueryHandlerTest.table(Adversary.NONE);
        InMemoryTableStore dest = new InMemoryTableStore(new Adversary(3, 0.3, 0.2, 0.5), Duration.ZERO);
        dest.createTableIfNotExists("Dest");
        source.rows("Source").stream().filter(r -> r.partitionKey().equals("p") && !r.rowKey().equals("r24"))
                .forEach(r -> dest.upsert("Dest", "p", List.of(r)));
        for (int[] row : new int[][] {{21, 5}, {3, 50}, {40, 99}, {41, 1}}) {
            dest.upsert("Dest", "p", List.of(new Row("p", PartitionQueryHandlerTest.rowKey(row[0]),
                    List.of(new RowProperty("N", EdmType.INT32, row[1])))));
        }
        ScanSpec verify = ScanSpec.newBuilder(PartitionQueryHandlerTest.SPEC).setVerify(true).setRowFilter("N ge 20")
                .build();
        List<EntityBatch> batches = new java.util.ArrayList<>();

        assertThat(run(verify, batches, source, dest)).isEqualTo(compared(1, 2, 1));
        assertThat(batches).isEmpty();
    }

    private static List<String> written(List<EntityBatch> batches) {
        return batches.stream().flatMap(b -> b.getEntities().stream()).map(e -> e.getRowKey()).toList();
    }
}
