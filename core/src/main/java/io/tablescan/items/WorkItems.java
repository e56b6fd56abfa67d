package io.tablescan.items;

import io.tablescan.schema.KeyBound;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.Bound;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.ScanQuery;
import org.apache.avro.specific.SpecificRecord;

/** Translates between the scanner's bounds and the Avro work items that carry them through Kafka. */
public final class WorkItems {
    private WorkItems() {}

    /** The scan's first item: its whole key range, the PartitionKey bounds of its spec (none: the table). */
    public static PrefixQuery root(ScanSpec spec) {
        String lower = spec.getLowerPartition();
        Bound from = lower == null || lower.isEmpty() ? null : Bound.from(lower);
        return (PrefixQuery) item(spec, new KeyRange(from, spec.getUpperPartition()), 0);
    }

    public static SpecificRecord item(ScanSpec spec, ScanQuery query, int depth) {
        return item(spec, query, depth, null);
    }

    /** The item of {@code query}; {@code continued}: the partition its range goes on with (see PartitionCount). */
    public static SpecificRecord item(ScanSpec spec, ScanQuery query, int depth, String continued) {
        return switch (query) {
            case KeyRange r -> new PrefixQuery(
                    ItemIds.of(spec.getScanId(), "prefix", text(r.lower()), text(r.lowerRow()), r.upper()),
                    spec, avro(r.lower()), avro(r.lowerRow()), r.upper(), depth, continued);
            case PartitionRange p -> new PartitionQuery(
                    ItemIds.of(spec.getScanId(), "partition", p.partitionKey(), text(p.rowLower())),
                    spec, p.partitionKey(), avro(p.rowLower()), depth, continued);
        };
    }

    public static KeyRange range(PrefixQuery item) {
        return new KeyRange(bound(item.getLower()), bound(item.getLowerRow()), item.getUpper());
    }

    public static PartitionRange partition(PartitionQuery item) {
        return new PartitionRange(item.getPartitionKey(), bound(item.getRowLower()));
    }

    private static Bound bound(KeyBound b) {
        return b == null ? null : new Bound(b.getKey(), b.getInclusive());
    }

    private static KeyBound avro(Bound b) {
        return b == null ? null : new KeyBound(b.key(), b.inclusive());
    }

    private static String text(Bound b) {
        return b == null ? null : (b.inclusive() ? "ge:" : "gt:") + b.key();
    }
}
