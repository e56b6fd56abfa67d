package io.tablescan.backup;

import io.tablescan.azure.WireForm;
import io.tablescan.spi.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a table holds, from every row of one scan: its properties ({@link PropertyCatalog}: types, counts, sizes,
 * the catalog a Parquet export's columns come from), its partitions (rows, bytes and newest Timestamp of each, in
 * the service's key order), the key space cut into about {@value #BUCKETS} buckets of equal rows, and the rows near
 * the service's limits. Sizes are the service's entity-size formula's ({@link PropertyCatalog#entityBytes}).
 * Holds one entry per partition: about 150 bytes of heap and 2 a character of its key.
 */
public final class TableProfile {
    static final int BUCKETS = 1_000;
    /** The most rows a partition serves a second: a big partition bounds a copy's time whatever its parallelism. */
    static final int PARTITION_ROWS_PER_SECOND = 2_000;
    static final long MAX_ENTITY_BYTES = 1L << 20;
    static final int MAX_PROPERTIES = 252;
    static final int MAX_KEY_BYTES = 1_024;
    private static final int EXAMPLES = 5;
    private static final int LARGEST = 10;

    private final PropertyCatalog catalog = new PropertyCatalog();
    private final TreeMap<String, long[]> partitions = new TreeMap<>(); // rows, bytes, newest Timestamp (ticks)
    private final Map<String, Limit> limits = new LinkedHashMap<>();
    private long bytes;

    /** Rows near one of the service's limits: how many, and the keys of the first few. */
    private static final class Limit {
        final String rule;
        long rows;
        final List<List<String>> examples = new ArrayList<>();

        Limit(String rule) {
            this.rule = rule;
        }
    }

    public TableProfile() {
        limits.put("entitySize", new Limit("over 90% of the 1 MiB an entity may hold"));
        limits.put("properties", new Limit("over 90% of the 252 properties an entity may have"));
        limits.put("partitionKey", new Limit("a PartitionKey over 90% of its 1 KiB (2 bytes a UTF-16 unit)"));
        limits.put("rowKey", new Limit("a RowKey over 90% of its 1 KiB (2 bytes a UTF-16 unit)"));
    }

    public void add(Row row) {
        catalog.add(row);
        long size = PropertyCatalog.entityBytes(row);
        bytes += size;
        long[] p = partitions.computeIfAbsent(row.partitionKey(), k -> new long[] {0, 0, Long.MIN_VALUE});
        p[0]++;
        p[1] += size;
        if (row.timestamp() != null) {
            p[2] = Math.max(p[2], row.timestamp());
        }
        near("entitySize", row, size > MAX_ENTITY_BYTES * 9 / 10);
        near("properties", row, row.properties().size() > MAX_PROPERTIES * 9 / 10);
        near("partitionKey", row, 2L * row.partitionKey().length() > MAX_KEY_BYTES * 9 / 10);
        near("rowKey", row, 2L * row.rowKey().length() > MAX_KEY_BYTES * 9 / 10);
    }

    private void near(String limit, Row row, boolean near) {
        if (near) {
            Limit l = limits.get(limit);
            l.rows++;
            if (l.examples.size() < EXAMPLES) {
                l.examples.add(List.of(row.partitionKey(), row.rowKey()));
            }
        }
    }

    /** Adds another profile's rows (of other partitions, or of the same: their figures add up). */
    public void merge(TableProfile other) {
        catalog.merge(other.catalog);
        bytes += other.bytes;
        other.partitions.forEach((key, o) -> {
            long[] p = partitions.computeIfAbsent(key, k -> new long[] {0, 0, Long.MIN_VALUE});
            p[0] += o[0];
            p[1] += o[1];
            p[2] = Math.max(p[2], o[2]);
        });
        other.limits.forEach((name, o) -> {
            Limit l = limits.get(name);
            l.rows += o.rows;
            for (List<String> example : o.examples) {
                if (l.examples.size() < EXAMPLES) {
                    l.examples.add(example);
                }
            }
        });
    }

    public PropertyCatalog catalog() {
        return catalog;
    }

    public long rows() {
        return catalog.rows();
    }

    public long bytes() {
        return bytes;
    }

    public int partitionCount() {
        return partitions.size();
    }

    /** The profile as a JSON-ready map: what {@code profile --json} prints. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("rows", rows());
        out.put("bytes", bytes);
        out.put("partitions", partitions.size());
        List<Map<String, Object>> properties = new ArrayList<>();
        catalog.properties().forEach((name, types) -> {
            long rows = types.values().stream().mapToLong(PropertyCatalog.Seen::count).sum();
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", name);
            p.put("rows", rows);
            p.put("fill", rows() == 0 ? 0.0 : (double) rows / rows());
            List<Map<String, Object>> typed = new ArrayList<>();
            types.forEach((type, seen) -> {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("type", WireForm.name(type));
                t.put("rows", seen.count());
                if (seen.text() > 0) {
                    t.put("asText", seen.text()); // values a Parquet export keeps as the service's texts
                }
                t.put("minBytes", seen.minBytes());
                t.put("maxBytes", seen.maxBytes());
                t.put("averageBytes", (double) seen.bytes() / seen.count());
                typed.add(t);
            });
            p.put("types", typed);
            properties.add(p);
        });
        out.put("properties", properties);
        out.put("largestPartitionsByRows", largest(0));
        out.put("largestPartitionsByBytes", largest(1));
        out.put("keySpace", buckets());
        Map<String, Object> near = new LinkedHashMap<>();
        limits.forEach((name, l) -> {
            Map<String, Object> limit = new LinkedHashMap<>();
            limit.put("rule", l.rule);
            limit.put("rows", l.rows);
            limit.put("examples", l.examples);
            near.put(name, limit);
        });
        out.put("nearLimits", near);
        return out;
    }

    /** The partitions with the most rows (field 0) or bytes (1), each with the least time a read of it takes. */
    private List<Map<String, Object>> largest(int field) {
        return partitions.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[field])
                        .thenComparing(Map.Entry::getKey))
                .limit(LARGEST).map(e -> {
                    Map<String, Object> p = new LinkedHashMap<>();
                    p.put("partitionKey", e.getKey());
                    p.put("rows", e.getValue()[0]);
                    p.put("bytes", e.getValue()[1]);
                    p.put("minReadSeconds", (double) e.getValue()[0] / PARTITION_ROWS_PER_SECOND);
                    return p;
                }).toList();
    }

    /** The partitions in key order, cut into buckets of about rows/{@value #BUCKETS} rows (a partition is never cut). */
    List<Map<String, Object>> buckets() {
        long target = Math.max(1, (rows() + BUCKETS - 1) / BUCKETS);
        List<Map<String, Object>> buckets = new ArrayList<>();
        String first = null;
        String last = null;
        long[] sum = {0, 0, Long.MIN_VALUE, 0}; // rows, bytes, newest, partitions
        for (Map.Entry<String, long[]> e : partitions.entrySet()) {
            if (first != null && e.getValue()[0] >= target) { // a partition that fills a bucket alone is one
                buckets.add(bucket(first, last, sum));
                first = null;
                sum = new long[] {0, 0, Long.MIN_VALUE, 0};
            }
            if (first == null) {
                first = e.getKey();
            }
            last = e.getKey();
            sum[0] += e.getValue()[0];
            sum[1] += e.getValue()[1];
            sum[2] = Math.max(sum[2], e.getValue()[2]);
            sum[3]++;
            if (sum[0] >= target) {
                buckets.add(bucket(first, last, sum));
                first = null;
                sum = new long[] {0, 0, Long.MIN_VALUE, 0};
            }
        }
        if (first != null) {
            buckets.add(bucket(first, last, sum));
        }
        return buckets;
    }

    private static Map<String, Object> bucket(String first, String last, long[] sum) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("fromPartitionKey", first);
        b.put("toPartitionKey", last);
        b.put("partitions", sum[3]);
        b.put("rows", sum[0]);
        b.put("bytes", sum[1]);
        b.put("newestTimestamp", sum[2] == Long.MIN_VALUE ? null : WireForm.dateTime(sum[2]));
        return b;
    }

    /** The profile for a person: properties, largest partitions, the key space in ten lines, the limits. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s in %s, %s as the service counts entities%n",
                plural(rows(), "row"), plural(partitions.size(), "partition"), size(bytes)));
        out.append(String.format(Locale.ROOT, "properties (%,d):%n", catalog.properties().size()));
        int width = Math.min(Math.max(catalog.properties().keySet().stream().mapToInt(String::length).max()
                .orElse(4), 4), 40);
        out.append(String.format(Locale.ROOT, "  %-" + width + "s  %7s  %s%n", "name", "fill",
                "types: rows (bytes min/avg/max)"));
        catalog.properties().forEach((name, types) -> {
            long rows = types.values().stream().mapToLong(PropertyCatalog.Seen::count).sum();
            List<String> typed = new ArrayList<>();
            types.forEach((type, seen) -> typed.add(String.format(Locale.ROOT, "%s %,d (%,d/%,.0f/%,d)%s",
                    WireForm.name(type), seen.count(), seen.minBytes(), (double) seen.bytes() / seen.count(),
                    seen.maxBytes(), seen.text() > 0 ? ", " + String.format(Locale.ROOT, "%,d", seen.text())
                            + " kept as text in Parquet" : "")));
            out.append(String.format(Locale.ROOT, "  %-" + width + "s  %6.1f%%  %s%n", name,
                    Math.floor(1000.0 * rows / Math.max(1, rows())) / 10, String.join("; ", typed))); // 99.97%: 99.9
        });
        out.append(String.format(Locale.ROOT, "largest partitions (the service's target for one partition is %,d "
                + "rows/s, so the largest bounds a copy's time):%n", PARTITION_ROWS_PER_SECOND));
        for (Map<String, Object> p : largest(0)) {
            double least = (Double) p.get("minReadSeconds");
            out.append(String.format(Locale.ROOT, "  %-28s %,12d rows  %10s%s%n", quoted((String) p.get(
                    "partitionKey")), (Long) p.get("rows"), size((Long) p.get("bytes")),
                    least >= 1 ? "  about " + seconds(least) + " at that rate" : ""));
        }
        List<Map<String, Object>> buckets = buckets();
        out.append(String.format(Locale.ROOT, "key space (%s in --json; here in about ten lines of as many rows%s):%n",
                plural(buckets.size(), "bucket"), catalog.timestamps() == 0 ? "; no Timestamp was read" : ""));
        long total = rows();
        long done = 0;
        int from = 0;
        for (int i = 0; i < buckets.size(); i++) {
            done += (Long) buckets.get(i).get("rows");
            int tenth = (int) Math.min(10, done * 10 / Math.max(1, total));
            int before = (int) Math.min(10, (done - (Long) buckets.get(i).get("rows")) * 10 / Math.max(1, total));
            if (tenth > before || i == buckets.size() - 1) { // this bucket reaches the next tenth of the rows
                keyLine(out, buckets.subList(from, i + 1));
                from = i + 1;
            }
        }
        out.append("near the service's limits:");
        boolean any = false;
        for (Limit l : limits.values()) {
            if (l.rows > 0) {
                any = true;
                out.append(String.format(Locale.ROOT, "%n  %,d %s %s, such as %s", l.rows, l.rows == 1 ? "row" : "rows",
                        l.rule,
                        l.examples.stream().map(k -> quoted(k.get(0)) + "/" + quoted(k.get(1))).toList()));
            }
        }
        out.append(any ? "" : " none").append(System.lineSeparator());
        return out.toString();
    }

    private static void keyLine(StringBuilder out, List<Map<String, Object>> group) {
        long rows = group.stream().mapToLong(b -> (Long) b.get("rows")).sum();
        long groupBytes = group.stream().mapToLong(b -> (Long) b.get("bytes")).sum();
        String newest = group.stream().map(b -> (String) b.get("newestTimestamp")).filter(java.util.Objects::nonNull)
                .max(String::compareTo).orElse("-");
        out.append(String.format(Locale.ROOT, "  %-28s .. %-28s %,10d rows  %10s%s%n",
                quoted((String) group.getFirst().get("fromPartitionKey")),
                quoted((String) group.getLast().get("toPartitionKey")), rows, size(groupBytes),
                newest.equals("-") ? "" : "  newest " + newest));
    }

    /** A key shown in quotes, characters a terminal would not show escaped, and long ones cut. */
    private static String quoted(String key) {
        StringBuilder b = new StringBuilder("'");
        key.codePoints().limit(24).forEach(c -> b.append(visible(c) ? new String(Character.toChars(c))
                : String.format(Locale.ROOT, c > 0xffff ? "\\U%06x" : "\\u%04x", c)));
        return b.append(key.codePointCount(0, key.length()) > 24 ? "…'" : "'").toString();
    }

    private static String plural(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", n, noun, n == 1 ? "" : "s");
    }

    private static boolean visible(int c) {
        int type = Character.getType(c);
        return type != Character.CONTROL && type != Character.FORMAT && type != Character.UNASSIGNED
                && type != Character.SURROGATE && type != Character.PRIVATE_USE && type != Character.LINE_SEPARATOR
                && type != Character.PARAGRAPH_SEPARATOR;
    }

    private static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : bytes >= 1L << 20 ? String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20))
                : bytes >= 1L << 10 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
                : bytes + " B";
    }

    private static String seconds(double s) {
        return s < 60 ? String.format(Locale.ROOT, "%.0f s", Math.floor(s))
                : String.format(Locale.ROOT, "%d:%02d", (long) s / 60, (long) s % 60);
    }
}
