package io.tablescan.items;

import static io.tablescan.items.EntityBatcherTest.SPEC;
import static io.tablescan.items.EntityBatcherTest.partition;
import static io.tablescan.items.EntityBatcherTest.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PagePart;
import io.tablescan.schema.ScanSpec;
import io.tablescan.serde.AvroSingleObjectSerializer;
import io.tablescan.spi.Row;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** How an item's entity batches are packed into entity pages: the same parts, in order, in few records. */
class EntityPagesTest {
    /** A read step's rows: partitions of 1 to 8 rows, then one of 250 (three transactions). */
    static List<Row> smallPartitions(int partitions) {
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            rows.addAll(partition(String.format("p%04d", p), 1 + p % 8));
        }
        rows.addAll(partition("zbig", 250));
        return rows;
    }

    static List<EntityPage> pages(List<SpecificRecord> items) {
        return items.stream().filter(EntityPage.class::isInstance).map(EntityPage.class::cast).toList();
    }

    @Test
    void aStepsBatchesBecomeThePartsOfOnePageInTheirOrder() {
        List<EntityBatch> batches = EntityBatcher.batches(SPEC, smallPartitions(200));

        List<SpecificRecord> packed = EntityPages.pack(List.copyOf(batches));

        EntityPage page = (EntityPage) packed.getFirst();
        assertThat(packed).hasSize(1);
        assertThat(page.getSpec()).isEqualTo(SPEC);
        assertThat(page.getParts()).hasSize(batches.size()).hasSize(203);
        for (int i = 0; i < batches.size(); i++) {
            PagePart part = page.getParts().get(i);
            assertThat(part.getPartitionKey()).isEqualTo(batches.get(i).getPartitionKey());
            assertThat(part.getEntities()).isEqualTo(batches.get(i).getEntities());
        }
        assertThat(EntityPages.rows(page)).isEqualTo(smallPartitions(200).size());
        assertThat(ItemKind.of(page)).isEqualTo(ItemKind.ENTITY_BATCH);
        assertThat(new String(ItemKind.key(page), StandardCharsets.UTF_8)).isEqualTo("p0000");
        WorkItemValidator.check(page);
    }

    @Test
    void otherItemsAreKeptAndNothingIsPackedWithoutBatches() {
        SpecificRecord query = WorkItems.item(SPEC, io.tablescan.spi.KeyRange.ALL, 1);
        List<EntityBatch> batches = EntityBatcher.batches(SPEC, partition("p", 3));

        List<SpecificRecord> packed = EntityPages.pack(List.of(batches.getFirst(), query));

        assertThat(packed).hasSize(2).startsWith(query);
        assertThat(EntityPages.pack(List.of(query))).containsExactly(query);
        assertThat(EntityPages.pack(List.of())).isEmpty();
    }

    @Test
    void aPageIsCutBeforeItsPartsPassTheBoundAndStaysFarUnderARecordsLimit() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < 400; p++) { // ~ 30 kB estimated a partition: 12 MB in all
            rows.addAll(partition(String.format("p%04d", p), 5, string("Text", 1000)));
        }
        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        List<EntityPage> pages = pages(EntityPages.pack(List.copyOf(batches)));

        assertThat(pages).hasSizeGreaterThan(3);
        assertThat(pages.stream().mapToInt(p -> p.getParts().size()).sum()).isEqualTo(batches.size());
        assertThat(pages.stream().flatMap(p -> p.getParts().stream()).map(PagePart::getPartitionKey).toList())
                .isEqualTo(batches.stream().map(EntityBatch::getPartitionKey).toList());
        try (var serializer = new AvroSingleObjectSerializer()) {
            for (EntityPage page : pages) {
                int bytes = serializer.serialize(Namespace.DEFAULT.entityBatches(), page).length;
                assertThat((long) bytes).isLessThan(EntityBatcher.MAX_PAYLOAD_BYTES).isLessThan(Topics.MAX_MESSAGE_BYTES / 2);
            }
        }
    }

    @Test
    void scansAreNeverMixedInAPageAndIdsFollowFromTheBatches() {
        ScanSpec other = ScanSpec.newBuilder(SPEC).setScanId("scan-other").build();
        List<SpecificRecord> items = new ArrayList<>(EntityBatcher.batches(SPEC, partition("a", 2)));
        items.addAll(EntityBatcher.batches(other, partition("b", 2)));

        List<EntityPage> pages = pages(EntityPages.pack(items));

        assertThat(pages).extracting(p -> p.getSpec().getScanId()).containsExactly("scan-b", "scan-other");
        assertThat(pages(EntityPages.pack(items))).extracting(EntityPage::getItemId)
                .isEqualTo(pages.stream().map(EntityPage::getItemId).toList()).doesNotHaveDuplicates();
    }

    @Test
    void aPageWithAnInvalidPartIsRejected() {
        EntityPage page = (EntityPage) EntityPages.pack(List.copyOf(EntityBatcher.batches(SPEC, partition("a", 2))))
                .getFirst();
        page.getParts().add(new PagePart("b", List.of(), List.of(), List.of(), List.of()));

        assertThatThrownBy(() -> WorkItemValidator.check(page)).hasMessageContaining("1 to 100 rows");
        assertThatThrownBy(() -> WorkItemValidator.check(new EntityPage("x", SPEC, List.of())))
                .hasMessageContaining("at least one part");
        EntityPage deletes = new EntityPage("d", SPEC, List.of(new PagePart("a", List.of(), List.of("r1"), List.of(), List.of())));
        assertThatThrownBy(() -> WorkItemValidator.check(deletes)).as("deletes only in a mirror's")
                .hasMessageContaining("mirror");
    }

    /** A mirror's writes are conditional on the ETags its comparison read: they go with the rows, over the wire. */
    @Test
    void aMirrorsWriteEtagsTravelInItsPage() {
        List<Row> rows = partition("a", 3);
        List<SpecificRecord> packed = EntityPages.pack(List.copyOf(EntityBatcher.batches(SPEC, rows,
                java.util.Arrays.asList("W/\"1\"", null, "W/\"3\""))));
        byte[] bytes = new io.tablescan.serde.AvroSingleObjectSerializer().serialize("t", packed.getFirst());
        EntityPage page = (EntityPage) new io.tablescan.serde.AvroSingleObjectDeserializer().deserialize("t", bytes);

        assertThat(page.getParts().getFirst().getWriteEtags()).containsExactly("W/\"1\"", null, "W/\"3\"");
    }
}
