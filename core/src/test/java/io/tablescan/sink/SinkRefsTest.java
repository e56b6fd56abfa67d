package io.tablescan.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.EntityBatcher;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.SinkRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A scan's sink as the copy-worker resolves it, and rows between the wire and the SPI. */
class SinkRefsTest {
    static final ScanSpec SPEC = ScanSpec.newBuilder().setScanId("s").setSource(new TableRef("src", "Source"))
            .setDestination(new TableRef("dst", "Dest")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1L)
            .build();

    @Test
    void aSpecWithADestinationAndNoSinkMeansTheTableSinkOnTheDestination() {
        assertThat(SinkRefs.of(SPEC)).isEqualTo(new SinkRef("table", "dst", "Dest", Map.of()));
    }

    @Test
    void aSpecWithoutEitherHasNoSink() {
        assertThat(SinkRefs.of(ScanSpec.newBuilder(SPEC).setDestination(null).build())).isNull();
    }

    @Test
    void aNamedSinkWinsAndRoundTripsThroughTheWireForm() {
        SinkRef count = new SinkRef("count", null, "tally", Map.of("every", "row"));
        ScanSpec spec = ScanSpec.newBuilder(SPEC).setDestination(null).setSink(SinkRefs.toWire(count)).build();

        assertThat(SinkRefs.of(spec)).isEqualTo(count);
    }

    @Test
    void rowsKeepEveryTypeAndValueBetweenWireAndSpi() {
        List<RowProperty> properties = List.of(
                new RowProperty("s", EdmType.STRING, "x"),
                new RowProperty("i32", EdmType.INT32, -7),
                new RowProperty("i64", EdmType.INT64, Long.MIN_VALUE),
                new RowProperty("nan", EdmType.DOUBLE, Double.NaN),
                new RowProperty("b", EdmType.BOOLEAN, false),
                new RowProperty("t", EdmType.DATETIME, 16_000_000_000_000_001L),
                new RowProperty("g", EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
                new RowProperty("bin", EdmType.BINARY, new byte[] {9, 8, 7}),
                new RowProperty("none", EdmType.STRING, null));
        Row row = new Row("p", "r", properties);

        List<Row> rows = Rows.of(EntityBatcher.batches(SPEC, List.of(row)).getFirst());

        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.partitionKey()).isEqualTo("p");
            assertThat(r.rowKey()).isEqualTo("r");
            assertThat(r.properties()).extracting(RowProperty::type).containsExactly(EdmType.STRING,
                    EdmType.INT32, EdmType.INT64, EdmType.DOUBLE,
                    EdmType.BOOLEAN, EdmType.DATETIME, EdmType.GUID,
                    EdmType.BINARY, EdmType.STRING);
            assertThat(r.properties().get(7).value()).isEqualTo(new byte[] {9, 8, 7});
        });
        assertThat(rows.getFirst()).as("the same row after the wire").isEqualTo(row);
    }

    @Test
    void aBatchFromTheWireGivesSinksTheDocumentedJavaTypes() {
        Row row = new Row("p", "r", List.of(new RowProperty("s", EdmType.STRING, "x"),
                new RowProperty("g", EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
                new RowProperty("i64", EdmType.INT64, 5L), new RowProperty("t", EdmType.DATETIME, 7L),
                new RowProperty("bin", EdmType.BINARY, new byte[] {1})));
        var serializer = new io.tablescan.serde.AvroSingleObjectSerializer();
        byte[] wire = serializer.serialize("t", EntityBatcher.batches(SPEC, List.of(row)).getFirst());
        var batch = (io.tablescan.schema.EntityBatch) new io.tablescan.serde.AvroSingleObjectDeserializer()
                .deserialize("t", wire);

        assertThat(Rows.of(batch).getFirst().properties()).extracting(p -> (Object) p.value().getClass())
                .containsExactly(String.class, String.class, Long.class, Long.class, byte[].class);
    }
}
