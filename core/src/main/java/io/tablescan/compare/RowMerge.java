package io.tablescan.compare;

import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.PropertyDifference;
import io.tablescan.sink.Rows;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Merges the source's and the destination's rows of the same keys, both in key order, by (PartitionKey, RowKey):
 * rows only in the source are missing, rows only in the destination extra, rows in both with other properties
 * different. Properties compare by name, EDM type and exact value (a DateTime to the 100 ns tick, a Double bit for
 * bit); Timestamp and ETag are the service's and are not compared.
 */
public final class RowMerge {
    /** The service's own properties, which a copy cannot carry over. */
    private static final List<String> NOT_COMPARED = List.of("Timestamp", "odata.etag");

    private RowMerge() {}

    /**
     * What a merge found: the differences in key order, the destination rows the source lacks, and the source rows
     * a mirror writes (missing or different in the destination), in key order, with the ETag of the destination row
     * each replaces (null: missing).
     */
    public record Result(List<Difference> differences, List<Row> extra, List<Row> toWrite, List<String> writeEtags,
            long missing, long differing) {
        public long extraCount() {
            return extra.size();
        }
    }

    public static Result merge(String scanId, List<Row> source, List<Row> destination) {
        List<Difference> differences = new ArrayList<>();
        List<Row> extra = new ArrayList<>();
        List<Row> toWrite = new ArrayList<>();
        List<String> writeEtags = new ArrayList<>();
        long missing = 0;
        long differing = 0;
        int i = 0;
        int j = 0;
        while (i < source.size() || j < destination.size()) {
            Row s = i < source.size() ? source.get(i) : null;
            Row d = j < destination.size() ? destination.get(j) : null;
            int c = s == null ? 1 : d == null ? -1 : compareKeys(s, d);
            if (c < 0) {
                differences.add(difference(scanId, DifferenceKind.MISSING, s, List.of()));
                toWrite.add(s);
                writeEtags.add(null);
                missing++;
                i++;
            } else if (c > 0) {
                differences.add(difference(scanId, DifferenceKind.EXTRA, d, List.of()));
                extra.add(d);
                j++;
            } else {
                List<PropertyDifference> changed = compare(s.properties(), d.properties());
                if (!changed.isEmpty()) {
                    differences.add(difference(scanId, DifferenceKind.DIFFERENT, s, changed));
                    toWrite.add(s);
                    writeEtags.add(d.etag());
                    differing++;
                }
                i++;
                j++;
            }
        }
        return new Result(differences, extra, toWrite, writeEtags, missing, differing);
    }

    static int compareKeys(Row a, Row b) {
        int c = a.partitionKey().compareTo(b.partitionKey());
        return c != 0 ? c : a.rowKey().compareTo(b.rowKey());
    }

    /** The properties that differ, by name in order; empty when the rows are equal. */
    public static List<PropertyDifference> compare(List<RowProperty> source, List<RowProperty> destination) {
        Map<String, RowProperty> s = byName(source);
        Map<String, RowProperty> d = byName(destination);
        TreeSet<String> names = new TreeSet<>(s.keySet());
        names.addAll(d.keySet());
        List<PropertyDifference> changed = new ArrayList<>();
        for (String name : names) {
            RowProperty a = s.get(name);
            RowProperty b = d.get(name);
            if (a == null || !a.equals(b)) {
                changed.add(new PropertyDifference(name, wire(a), wire(b)));
            }
        }
        return changed;
    }

    private static Map<String, RowProperty> byName(List<RowProperty> properties) {
        Map<String, RowProperty> byName = new TreeMap<>();
        for (RowProperty p : properties) {
            if (!NOT_COMPARED.contains(p.name())) {
                byName.put(p.name(), p);
            }
        }
        return byName;
    }

    private static io.tablescan.schema.Property wire(RowProperty p) {
        return p == null ? null : Rows.toWire(List.of(p)).get(0);
    }

    private static Difference difference(String scanId, DifferenceKind kind, Row row, List<PropertyDifference> changed) {
        return Difference.newBuilder().setScanId(scanId).setKind(kind).setPartitionKey(row.partitionKey())
                .setRowKey(row.rowKey()).setProperties(changed).setDeleted(false).build();
    }
}
