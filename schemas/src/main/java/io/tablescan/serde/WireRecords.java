package io.tablescan.serde;

import io.tablescan.schema.Difference;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.RateDemand;
import io.tablescan.schema.ScanControl;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanStatus;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/** The record types that travel as Kafka values, and the Avro model that decodes them. */
public final class WireRecords {
    /** Top-level records; every other schema is nested in one of these. */
    public static final List<Schema> SCHEMAS = List.of(
            PrefixQuery.getClassSchema(),
            PartitionQuery.getClassSchema(),
            EntityBatch.getClassSchema(),
            EntityPage.getClassSchema(),
            ScanEvent.getClassSchema(),
            ScanStatus.getClassSchema(),
            ScanControl.getClassSchema(),
            Difference.getClassSchema(),
            RateDemand.getClassSchema());

    static {
        // Avro 1.12 refuses to instantiate generated classes of packages it does not trust.
        String trusted = System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "");
        if (!trusted.contains("io.tablescan.schema")) {
            System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES",
                    trusted.isEmpty() ? "io.tablescan.schema" : trusted + ",io.tablescan.schema");
        }
    }

    /** Every top-level schema of every released version, as written in {@code schemas/released/}. */
    public static List<Schema> releasedSchemas() {
        List<Schema> released = new java.util.ArrayList<>();
        String versions = resource("VERSIONS");
        if (versions == null) {
            throw new IllegalStateException("missing schemas/released/VERSIONS");
        }
        for (String version : versions.strip().split("\\s+")) {
            for (Schema current : SCHEMAS) {
                String text = resource(version + "/" + current.getName() + ".avsc");
                if (text != null) { // null: the record did not exist yet in that version
                    released.add(new Schema.Parser().parse(text));
                }
            }
        }
        return released;
    }

    private static String resource(String name) {
        try (var in = WireRecords.class.getResourceAsStream("/io/tablescan/schema/released/" + name)) {
            if (in == null) {
                return null;
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The model that maps our schemas to the generated SpecificRecord classes. */
    public static SpecificData model() {
        return SpecificData.getForClass(PrefixQuery.class);
    }

    private WireRecords() {}
}
