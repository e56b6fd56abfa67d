package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each kind's counts land in the Avro field named for it, whatever the order of the enum or the schema. */
class ScanEventBuilderTest {
    private static final ItemHandler.Result NOTHING = new ItemHandler.Result(List.of(), 0, 0, 0);

    @Test
    void eachKindIsCountedInItsNamedField() {
        ScanEventBuilder builder = new ScanEventBuilder("s");
        builder.emitted(ItemKind.PREFIX_QUERY);
        builder.emitted(ItemKind.PARTITION_QUERY).emitted(ItemKind.PARTITION_QUERY);
        builder.emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.ENTITY_BATCH).emitted(ItemKind.ENTITY_BATCH);
        builder.done(ItemKind.ENTITY_BATCH, 0, NOTHING).failed(ItemKind.PARTITION_QUERY, "e")
                .skipped(ItemKind.PREFIX_QUERY).retried(ItemKind.ENTITY_BATCH).retried(ItemKind.ENTITY_BATCH);
        ScanEvent event = builder.build();
        assertThat(event.getEmitted()).isEqualTo(counts(1, 2, 3));
        assertThat(event.getDone()).isEqualTo(counts(0, 0, 1));
        assertThat(event.getFailed()).isEqualTo(counts(0, 1, 0));
        assertThat(event.getSkipped()).isEqualTo(counts(1, 0, 0));
        assertThat(event.getRetried()).isEqualTo(counts(0, 0, 2));
    }

    @Test
    void aKindReadsTheFieldItNames() {
        ItemCounts counts = counts(1, 2, 3);
        assertThat(ItemKind.PREFIX_QUERY.count(counts)).isEqualTo(1);
        assertThat(ItemKind.PARTITION_QUERY.count(counts)).isEqualTo(2);
        assertThat(ItemKind.ENTITY_BATCH.count(counts)).isEqualTo(3);
        assertThat(ItemKind.counts(kind -> kind.count(counts))).isEqualTo(counts);
    }

    private static ItemCounts counts(int prefixQueries, int partitionQueries, int entityBatches) {
        return ItemCounts.newBuilder().setPrefixQueries(prefixQueries).setPartitionQueries(partitionQueries)
                .setEntityBatches(entityBatches).build();
    }
}
