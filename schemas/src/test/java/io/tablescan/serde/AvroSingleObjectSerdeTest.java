package io.tablescan.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.schema.EdmType;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.KeyBound;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.Property;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroSingleObjectSerdeTest {
    private final AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();
    private final AvroSingleObjectDeserializer deserializer = new AvroSingleObjectDeserializer();

    static ScanSpec spec() {
        return ScanSpec.newBuilder().setScanId("scan-1").setSource(new TableRef("src", "Source"))
                .setDestination(new TableRef("dst", "Dest")).setPageSize(1000).setPageBudget(4)
                .setCreatedAtMillis(1L).build();
    }

    @Test
    void roundTripsEveryTypeWithExactValues() {
        Entity entity = new Entity("r'1\uFFFF", List.of(
                new Property("nan", EdmType.DOUBLE, Double.NaN, null),
                new Property("inf", EdmType.DOUBLE, Double.NEGATIVE_INFINITY, null),
                new Property("big", EdmType.INT64, Long.MIN_VALUE, "-09223372036854775808"),
                new Property("bin", EdmType.BINARY, ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xFF}), null),
                new Property("none", EdmType.STRING, null, null)), 638_000_000_000_000_001L);
        EntityBatch batch = new EntityBatch("item", spec(), "\uD800\uDC00pk", List.of(entity), List.of(), List.of(), List.of());

        EntityBatch back = (EntityBatch) deserializer.deserialize("t", serializer.serialize("t", batch));

        assertThat(back).isEqualTo(batch);
        assertThat((Double) back.getEntities().get(0).getProperties().get(0).getValue()).isNaN();
    }

    @Test
    void picksTheRecordTypeFromTheFingerprint() {
        PrefixQuery query = new PrefixQuery("id", spec(), new KeyBound("a", false), null, "b", 3, null);
        assertThat(deserializer.deserialize("t", serializer.serialize("t", query))).isEqualTo(query);
    }

    @Test
    void carriesAJobsFlags() {
        ScanSpec spec = ScanSpec.newBuilder(spec()).setChangedOnly(true).build();
        PrefixQuery query = new PrefixQuery("id", spec, new KeyBound("a", false), null, "b", 3, null);
        assertThat(((PrefixQuery) deserializer.deserialize("t", serializer.serialize("t", query))).getSpec()
                .getChangedOnly()).isTrue();
    }

    @Test
    void rejectsGarbageWithAClearMessage() {
        assertThatThrownBy(() -> deserializer.deserialize("t", "hello world".getBytes()))
                .isInstanceOf(SerializationException.class).hasMessageContaining("bad header");
        byte[] unknown = {(byte) 0xC3, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0};
        assertThatThrownBy(() -> deserializer.deserialize("t", unknown))
                .isInstanceOf(SerializationException.class).hasMessageContaining("unknown schema");
        byte[] valid = serializer.serialize("t", new PrefixQuery("id", spec(), null, null, null, 0, null));
        byte[] truncated = Arrays.copyOf(valid, 14);
        assertThatThrownBy(() -> deserializer.deserialize("t", truncated))
                .isInstanceOf(SerializationException.class).hasMessageContaining("corrupt");
    }

    @Test
    void resolvesAnOlderWriterSchema() {
        // An older PrefixQuery without "depth": readers fill in the default.
        Schema current = PrefixQuery.getClassSchema();
        Schema older = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false,
                current.getFields().stream().filter(f -> !f.name().equals("depth") && !f.name().equals("lowerRow"))
                        .map(f -> new Schema.Field(f, f.schema())).toList());
        GenericRecord old = new GenericData.Record(older);
        old.put("itemId", "id");
        old.put("spec", spec());
        old.put("lower", null);
        old.put("upper", "z");
        byte[] bytes = encode(older, old);

        deserializer.addWriterSchema(older);
        PrefixQuery back = (PrefixQuery) deserializer.deserialize("t", bytes);

        assertThat(back.getUpper()).isEqualTo("z");
        assertThat(back.getDepth()).isZero();
    }

    @Test
    void readsABatchWrittenByTheFirstReleaseWithoutASink() throws java.io.IOException {
        // What a 0.1.0 worker put on the wire: the released schema, which has a destination and no sink.
        Schema released = WireRecords.releasedSchemas().stream()
                .filter(s -> s.getFullName().equals(EntityBatch.getClassSchema().getFullName())).findFirst().orElseThrow();
        assertThat(released.getField("spec").schema().getField("sink")).isNull();
        EntityBatch batch = new EntityBatch("id", spec(), "p", List.of(new Entity("r", List.of(), null)), List.of(), List.of(), List.of());
        GenericRecord old = asWrittenBy(released, batch);

        EntityBatch back = (EntityBatch) deserializer.deserialize("t", encode(released, old));

        assertThat(back.getSpec().getSink()).isNull();
        assertThat(back.getSpec().getDestination()).isEqualTo(new TableRef("dst", "Dest"));
        assertThat(back).isEqualTo(batch);
    }

    @Test
    void readsAQueryAndAnEventWrittenByTheFirstReleaseAsNoCountAndNoContinuedPartition() throws java.io.IOException {
        Schema query = released(PrefixQuery.getClassSchema());
        assertThat(query.getField("continuedPartition")).isNull();
        PrefixQuery item = new PrefixQuery("id", spec(), new KeyBound("a", true), new KeyBound("r", false), "b", 2, null);

        PrefixQuery back = (PrefixQuery) deserializer.deserialize("t", encode(query, asWrittenBy(query, item)));

        assertThat(back).isEqualTo(item);
        assertThat(back.getSpec().getCount()).isFalse();

        Schema event = released(ScanEvent.getClassSchema());
        assertThat(event.getField("partitions")).isNull();
        ItemCounts none = new ItemCounts(0, 0, 0);
        ScanEvent written = new ScanEvent("s", 1L, null, none, new ItemCounts(1, 0, 0), none, 10L, 0L, 1L, 0, null,
                none, none, false, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, java.util.Map.of());
        assertThat(((ScanEvent) deserializer.deserialize("t", encode(event, asWrittenBy(event, written)))).getPartitions())
                .as("a released worker's event counts no partitions").isZero();
    }

    private static Schema released(Schema current) {
        return WireRecords.releasedSchemas().stream().filter(s -> s.getFullName().equals(current.getFullName()))
                .findFirst().orElseThrow();
    }

    /** The record as a writer with an older schema holds it: fields it lacks dropped. */
    private static GenericRecord asWrittenBy(Schema older, org.apache.avro.specific.SpecificRecord current)
            throws java.io.IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        var encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(bytes, null);
        new org.apache.avro.specific.SpecificDatumWriter<Object>(current.getSchema()).write(current, encoder);
        encoder.flush();
        var decoder = org.apache.avro.io.DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null);
        return new org.apache.avro.generic.GenericDatumReader<GenericRecord>(current.getSchema(), older)
                .read(null, decoder);
    }

    private static byte[] encode(Schema schema, GenericRecord record) {
        try {
            return new BinaryMessageEncoder<GenericRecord>(WireRecords.model(), schema).encode(record).array();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
