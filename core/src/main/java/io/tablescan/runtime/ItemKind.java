package io.tablescan.runtime;

import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;
import org.apache.avro.specific.SpecificRecord;

/**
 * The three kinds of work item: where each is sent ({@link Namespace#topic(ItemKind)}), how it is keyed, what
 * it carries.
 */
public enum ItemKind {
    PREFIX_QUERY("prefix-queries"),
    PARTITION_QUERY("partition-queries"),
    ENTITY_BATCH("entity-batches");

    /** The topic's name within a namespace. */
    final String role;

    ItemKind(String role) {
        this.role = role;
    }

    /**
     * This kind's count in an {@link ItemCounts}. Each kind names its Avro field (the switch fails to compile
     * for a new kind), so reordering the enum or the schema cannot move a count to another kind.
     */
    public int count(ItemCounts counts) {
        return switch (this) {
            case PREFIX_QUERY -> counts.getPrefixQueries();
            case PARTITION_QUERY -> counts.getPartitionQueries();
            case ENTITY_BATCH -> counts.getEntityBatches();
        };
    }

    /** Counts by kind as an {@link ItemCounts}, each in the field its kind names. */
    public static ItemCounts counts(ToIntFunction<ItemKind> count) {
        ItemCounts.Builder counts = ItemCounts.newBuilder();
        for (ItemKind kind : values()) {
            int n = count.applyAsInt(kind);
            counts = switch (kind) {
                case PREFIX_QUERY -> counts.setPrefixQueries(n);
                case PARTITION_QUERY -> counts.setPartitionQueries(n);
                case ENTITY_BATCH -> counts.setEntityBatches(n);
            };
        }
        return counts.build();
    }

    public static ItemKind of(SpecificRecord item) {
        return switch (item) {
            case PrefixQuery q -> PREFIX_QUERY;
            case PartitionQuery q -> PARTITION_QUERY;
            case EntityBatch b -> ENTITY_BATCH;
            case EntityPage p -> ENTITY_BATCH; // the same topic and counts: one record, however many parts
            default -> throw new IllegalArgumentException("not a work item: " + item.getSchema().getFullName());
        };
    }

    public static ScanSpec spec(SpecificRecord item) {
        return switch (item) {
            case PrefixQuery q -> q.getSpec();
            case PartitionQuery q -> q.getSpec();
            case EntityBatch b -> b.getSpec();
            case EntityPage p -> p.getSpec();
            default -> throw new IllegalArgumentException("not a work item: " + item.getSchema().getFullName());
        };
    }

    public static int depth(SpecificRecord item) {
        return switch (item) {
            case PrefixQuery q -> q.getDepth();
            case PartitionQuery q -> q.getDepth();
            default -> 0;
        };
    }

    /**
     * The record key: entity batches by PartitionKey, so a table partition's batches share one topic partition
     * for any consumer of that public topic (the copy-worker writes them concurrently all the same: distinct
     * rows, written with upsert-replace, need no order); an entity page by its first part's PartitionKey (a
     * partition read in several steps may then span topic partitions); queries by item id, to spread them.
     */
    public static byte[] key(SpecificRecord item) {
        String key = switch (item) {
            case PrefixQuery q -> q.getItemId();
            case PartitionQuery q -> q.getItemId();
            case EntityBatch b -> b.getPartitionKey();
            case EntityPage p -> p.getParts().isEmpty() ? p.getItemId() : p.getParts().getFirst().getPartitionKey();
            default -> throw new IllegalArgumentException("not a work item: " + item.getSchema().getFullName());
        };
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
