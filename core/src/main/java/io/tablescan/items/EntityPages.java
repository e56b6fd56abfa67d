package io.tablescan.items;

import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PagePart;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Packs the entity batches one work item emits into entity pages, so a read step's rows of many small partitions
 * travel as one record instead of one record a partition: one encode, one decode, one spec, one offset. Each
 * batch becomes a part of its page unchanged (still one table transaction); a page is cut when its parts'
 * estimated request payload would pass {@link #MAX_PAGE_BYTES}, so its Avro form stays well under a record's
 * limit (the estimate is several times the Avro size).
 */
public final class EntityPages {
    /** The parts' estimated payload a page stays under, unless its one part is bigger. */
    public static final long MAX_PAGE_BYTES = EntityBatcher.MAX_PAYLOAD_BYTES;

    private EntityPages() {}

    /**
     * The items with their entity batches packed into pages, in the batches' order; every other item is kept, in
     * its order, before the pages.
     */
    public static List<SpecificRecord> pack(List<SpecificRecord> emitted) {
        List<SpecificRecord> packed = new ArrayList<>(emitted.size());
        List<EntityBatch> batches = new ArrayList<>();
        for (SpecificRecord item : emitted) {
            if (item instanceof EntityBatch batch) {
                batches.add(batch);
            } else {
                packed.add(item);
            }
        }
        List<EntityBatch> page = new ArrayList<>();
        long bytes = 0;
        for (EntityBatch batch : batches) {
            long size = estimate(batch);
            boolean cut = !page.isEmpty() && (bytes + size > MAX_PAGE_BYTES
                    || !page.getFirst().getSpec().getScanId().equals(batch.getSpec().getScanId()));
            if (cut) {
                packed.add(page(page));
                page = new ArrayList<>();
                bytes = 0;
            }
            page.add(batch);
            bytes += size;
        }
        if (!page.isEmpty()) {
            packed.add(page(page));
        }
        return packed;
    }

    /** One page of these batches (of one scan); its id follows from theirs. */
    static EntityPage page(List<EntityBatch> batches) {
        List<PagePart> parts = new ArrayList<>(batches.size());
        for (EntityBatch batch : batches) {
            parts.add(new PagePart(batch.getPartitionKey(), batch.getEntities(), batch.getDeletes(),
                    batch.getDeleteEtags(), batch.getWriteEtags()));
        }
        EntityBatch first = batches.getFirst();
        return new EntityPage(ItemIds.of(first.getSpec().getScanId(), "page", first.getItemId(),
                batches.getLast().getItemId()), first.getSpec(), parts);
    }

    /** The rows a page carries (a mirror's deletes not counted). */
    public static int rows(EntityPage page) {
        int rows = 0;
        for (PagePart part : page.getParts()) {
            rows += part.getEntities().size();
        }
        return rows;
    }

    private static long estimate(EntityBatch batch) {
        long bytes = 0;
        for (Entity entity : batch.getEntities()) {
            bytes += EntityBatcher.estimate(batch.getPartitionKey(), entity);
        }
        for (String rowKey : batch.getDeletes()) {
            bytes += EntityBatcher.keysEstimate(batch.getPartitionKey(), rowKey);
        }
        return bytes;
    }
}
