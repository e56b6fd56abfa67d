package io.tablescan.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tablescan.azure.WireForm;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.Difference;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.Property;
import io.tablescan.schema.PropertyDifference;
import io.tablescan.sink.Rows;
import io.tablescan.spi.RowProperty;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * What a verify (or a mirror) found, read back from {@code <namespace>.differences} once the scan has ended: the
 * first few keys of each kind (in key order) for the screen, and with {@code --report FILE} every difference as
 * one JSON object a line. Read committed only, so each difference appears once however often its item replayed.
 */
public final class DifferenceReport {
    /** Keys of each kind shown on screen. */
    static final int SHOWN = 5;

    private final Map<DifferenceKind, TreeSet<String>> first = new EnumMap<>(DifferenceKind.class);
    private final Map<DifferenceKind, Long> counted = new EnumMap<>(DifferenceKind.class);

    /** Checks before the scan that {@code report} (null: none) can be written: one line, exit 2, if not. */
    static void checkWritable(Path report) {
        if (report == null) {
            return;
        }
        try {
            Files.newOutputStream(report).close();
        } catch (IOException | RuntimeException e) {
            throw new UserError(UserError.USAGE, "cannot write --report " + report + " (" + e.getClass().getSimpleName()
                    + ")");
        }
    }

    /** Reads the scan's differences, writing each to {@code report} (null: none). */
    public static DifferenceReport read(KafkaSettings kafka, String scanId, Path report) {
        return collect(report, each -> {
            Deserializer<SpecificRecord> deserializer = kafka.valueDeserializer();
            try (Consumer<byte[], byte[]> consumer = kafka.newReader()) {
                List<TopicPartition> partitions = Topics.partitions(consumer, kafka.namespace().differences());
                Topics.readFromStart(consumer, partitions, record -> {
                    if (record.key() == null || !scanId.equals(new String(record.key(), StandardCharsets.UTF_8))) {
                        return;
                    }
                    each.accept((Difference) deserializer.deserialize(record.topic(), record.headers(),
                            record.value()));
                });
            }
        });
    }

    /**
     * The differences {@code source} hands over (found in this process: an export's verify), each written to
     * {@code report} (null: none) in the same lines as a scan's.
     */
    static DifferenceReport collect(Path report,
            java.util.function.Consumer<java.util.function.Consumer<Difference>> source) {
        DifferenceReport found = new DifferenceReport();
        try (OutputStream file = report == null ? OutputStream.nullOutputStream() : Files.newOutputStream(report);
                JsonGenerator json = new JsonFactory().createGenerator(file)) {
            json.setRootValueSeparator(new com.fasterxml.jackson.core.io.SerializedString("\n"));
            source.accept(difference -> {
                found.add(difference);
                if (report != null) {
                    write(json, difference);
                }
            });
            if (found.total() > 0) {
                json.writeRaw('\n'); // each line ends with one; Jackson separates root values only
            }
        } catch (IOException e) {
            throw new UserError(UserError.FAILED, "cannot write the report " + report + ": " + e.getMessage());
        }
        return found;
    }

    private void add(Difference d) {
        counted.merge(d.getKind(), 1L, Long::sum);
        TreeSet<String> keys = first.computeIfAbsent(d.getKind(), k -> new TreeSet<>());
        keys.add(key(d.getPartitionKey(), d.getRowKey()));
        if (keys.size() > SHOWN) {
            keys.pollLast();
        }
    }

    private long total() {
        return counted.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Differences of this kind in the topic. */
    public long count(DifferenceKind kind) {
        return counted.getOrDefault(kind, 0L);
    }

    /** Prints the first keys of each kind, under {@code label}s such as "missing from the destination". */
    void printFirst(PrintStream out, Map<DifferenceKind, String> labels, Map<DifferenceKind, Long> totals) {
        for (Map.Entry<DifferenceKind, String> label : labels.entrySet()) {
            TreeSet<String> keys = first.get(label.getKey());
            if (keys == null || keys.isEmpty()) {
                continue;
            }
            long total = totals.getOrDefault(label.getKey(), (long) keys.size());
            String shown = total > keys.size() ? String.format("%,d of %,d", keys.size(), total) : String.format("%,d", total);
            out.printf("  first %s (%s):%n", label.getValue(), shown);
            keys.forEach(key -> out.println("    " + key));
        }
    }

    /** A key as the user reads it: quoted, with Java's escapes for what a terminal would not show. */
    public static String key(String pk, String rk) {
        return "(" + quoted(pk) + ", " + quoted(rk) + ")";
    }

    private static String quoted(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                b.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c == 0x7f || (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE || c == 0xFFFF) {
                b.append(String.format("\\u%04X", c)); // a lone surrogate or noncharacter: shown as its code
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append('"').toString();
    }

    /** One line: {"kind":"different","partitionKey":..,"rowKey":..,"properties":[{"name":..,"source":..,..}]}. */
    private static void write(JsonGenerator json, Difference d) {
        try {
            json.writeStartObject();
            json.writeStringField("kind", d.getKind().name().toLowerCase(java.util.Locale.ROOT));
            json.writeStringField("partitionKey", d.getPartitionKey());
            json.writeStringField("rowKey", d.getRowKey());
            if (d.getKind() == DifferenceKind.DIFFERENT) {
                json.writeArrayFieldStart("properties");
                for (PropertyDifference p : d.getProperties()) {
                    json.writeStartObject();
                    json.writeStringField("name", p.getName());
                    value(json, "source", p.getSource());
                    value(json, "destination", p.getDestination());
                    json.writeEndObject();
                }
                json.writeEndArray();
            }
            if (d.getDeleted()) {
                json.writeBooleanField("deleted", true);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A property in the service's wire form: its EDM type and its value's text; null when the row lacks it. */
    private static void value(JsonGenerator json, String field, Property wire) throws IOException {
        if (wire == null) {
            json.writeNullField(field);
            return;
        }
        RowProperty p = Rows.of(new ArrayList<>(List.of(wire))).get(0);
        json.writeObjectFieldStart(field);
        json.writeStringField("type", "Edm." + WireForm.name(p.type()));
        if (p.value() == null) {
            json.writeNullField("value");
        } else {
            json.writeStringField("value", WireForm.text(p));
        }
        json.writeEndObject();
    }
}
