package io.tablescan.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.items.EntityBatcher;
import io.tablescan.scanner.TableRow;
import io.tablescan.schema.EdmType;
import io.tablescan.schema.Property;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.SinkRef;
import java.nio.ByteBuffer;
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
        List<Property> properties = List.of(
                new Property("s", EdmType.STRING, "x"),
                new Property("i32", EdmType.INT32, -7),
                new Property("i64", EdmType.INT64, Long.MIN_VALUE),
                new Property("nan", EdmType.DOUBLE, Double.NaN),
                new Property("b", EdmType.BOOLEAN, false),
                new Property("t", EdmType.DATETIME, 16_000_000_000_000_001L),
                new Property("g", EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
                new Property("bin", EdmType.BINARY, ByteBuffer.wrap(new byte[] {9, 8, 7})),
                new Property("none", EdmType.STRING, null));
        TableRow row = new TableRow("p", "r", properties);

        List<Row> rows = Rows.of(EntityBatcher.batches(SPEC, List.of(row)).getFirst());

        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.partitionKey()).isEqualTo("p");
            assertThat(r.rowKey()).isEqualTo("r");
            assertThat(r.properties()).extracting(RowProperty::type).containsExactly(io.tablescan.spi.EdmType.STRING,
                    io.tablescan.spi.EdmType.INT32, io.tablescan.spi.EdmType.INT64, io.tablescan.spi.EdmType.DOUBLE,
                    io.tablescan.spi.EdmType.BOOLEAN, io.tablescan.spi.EdmType.DATETIME, io.tablescan.spi.EdmType.GUID,
                    io.tablescan.spi.EdmType.BINARY, io.tablescan.spi.EdmType.STRING);
            assertThat(r.properties().get(7).value()).isEqualTo(new byte[] {9, 8, 7});
        });
        assertThat(Rows.toTableRow(rows.getFirst())).isEqualTo(row);
    }

    @Test
    void aBatchFromTheWireGivesSinksTheDocumentedJavaTypes() {
        TableRow row = new TableRow("p", "r", List.of(new Property("s", EdmType.STRING, "x"),
                new Property("g", EdmType.GUID, "0f8fad5b-d9cb-469f-a165-70867728950e"),
                new Property("i64", EdmType.INT64, 5L), new Property("t", EdmType.DATETIME, 7L),
                new Property("bin", EdmType.BINARY, ByteBuffer.wrap(new byte[] {1}))));
        var serializer = new io.tablescan.serde.AvroSingleObjectSerializer();
        byte[] wire = serializer.serialize("t", EntityBatcher.batches(SPEC, List.of(row)).getFirst());
        var batch = (io.tablescan.schema.EntityBatch) new io.tablescan.serde.AvroSingleObjectDeserializer()
                .deserialize("t", wire);

        assertThat(Rows.of(batch).getFirst().properties()).extracting(p -> (Object) p.value().getClass())
                .containsExactly(String.class, String.class, Long.class, Long.class, byte[].class);
    }
}
