package io.tablescan.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.schema.EdmType;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PagePart;
import io.tablescan.schema.Property;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.MissingSchemaException;
import org.junit.jupiter.api.Test;

/**
 * The entity page is a new record, not a new version of EntityBatch: today's readers read it, and a reader
 * that knows only the first release's records cannot mistake it for a batch.
 */
class EntityPageWireTest {
    static EntityPage page() {
        Entity row = new Entity("r1", List.of(new Property("n", EdmType.INT32, 7, null)), 638_000_000_000_000_001L);
        return new EntityPage("page-1", AvroSingleObjectSerdeTest.spec(), List.of(
                new PagePart("a", List.of(row), List.of(), List.of(), java.util.Arrays.asList("W/\"2\"", null)),
                new PagePart("b", List.of(row, row), List.of(), List.of(), List.of()),
                new PagePart("c", List.of(), List.of("r9"), List.of("W/\"1\""), List.of())));
    }

    @Test
    void roundTrips() {
        byte[] bytes = new AvroSingleObjectSerializer().serialize("t", page());

        assertThat(new AvroSingleObjectDeserializer().deserialize("t", bytes)).isEqualTo(page());
    }

    @Test
    void isARecordOfItsOwnThatNoEntityBatchSchemaReads() {
        assertThat(EntityPage.getClassSchema().getFullName()).isNotEqualTo(EntityBatch.getClassSchema().getFullName());
        assertThat(WireRecords.releasedSchemas()).extracting(Schema::getFullName)
                .as("not released yet: nothing to stay compatible with").doesNotContain(EntityPage.getClassSchema().getFullName());
        byte[] bytes = new AvroSingleObjectSerializer().serialize("t", page());
        // A 0.1.0 reader: a decoder of the released EntityBatch and nothing else.
        Schema released = WireRecords.releasedSchemas().stream()
                .filter(s -> s.getFullName().equals(EntityBatch.getClassSchema().getFullName())).findFirst().orElseThrow();
        BinaryMessageDecoder<GenericRecord> old = new BinaryMessageDecoder<>(GenericData.get(), released);

        assertThatThrownBy(() -> old.decode(bytes)).isInstanceOf(MissingSchemaException.class);
    }
}
