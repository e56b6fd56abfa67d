package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableEntity;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Values leave in the service's own form and come back unchanged, at every edge the service can hold. */
class EdmCodecTest {
    private static long ticks(String instant) {
        return EdmCodec.toTicks(Instant.parse(instant));
    }

    @Test
    void dateTimesHaveExactlySevenFractionDigitsAcrossTheServiceRange() {
        assertThat(WireForm.dateTime(ticks("1601-01-01T00:00:00Z"))).isEqualTo("1601-01-01T00:00:00.0000000Z");
        assertThat(WireForm.dateTime(ticks("9999-12-31T23:59:59.9999999Z"))).isEqualTo("9999-12-31T23:59:59.9999999Z");
        assertThat(WireForm.dateTime(ticks("2013-01-10T08:10:28.0000558Z"))).isEqualTo("2013-01-10T08:10:28.0000558Z");
        assertThat(WireForm.dateTime(ticks("2015-03-12T00:12:20.000056Z"))).isEqualTo("2015-03-12T00:12:20.0000560Z");
        assertThat(WireForm.dateTime(-1)).isEqualTo("1969-12-31T23:59:59.9999999Z");
        assertThat(WireForm.dateTime(0)).isEqualTo("1970-01-01T00:00:00.0000000Z");
    }

    @Test
    void everyTypedValueIsWrittenAsTheServicesTextWithItsAnnotation() {
        byte[] bytes = {0, 1, (byte) 255};
        Row row = new Row("p", "r", List.of(
                new RowProperty("When", EdmType.DATETIME, ticks("2013-01-10T08:10:28.0000558Z")),
                new RowProperty("Big", EdmType.INT64, Long.MIN_VALUE),
                new RowProperty("Id", EdmType.GUID, "c9da6455-213d-42c9-9a79-3e9149a57833"),
                new RowProperty("Bytes", EdmType.BINARY, bytes),
                new RowProperty("Real", EdmType.DOUBLE, -0.0),
                new RowProperty("Nan", EdmType.DOUBLE, Double.NaN),
                new RowProperty("Small", EdmType.INT32, Integer.MAX_VALUE),
                new RowProperty("Flag", EdmType.BOOLEAN, false),
                new RowProperty("Text", EdmType.STRING, ""),
                new RowProperty("Gone", EdmType.STRING, null)));

        var written = EdmCodec.write(row).getProperties();

        assertThat(written).containsEntry("When", "2013-01-10T08:10:28.0000558Z")
                .containsEntry("When@odata.type", "Edm.DateTime")
                .containsEntry("Big", "-9223372036854775808").containsEntry("Big@odata.type", "Edm.Int64")
                .containsEntry("Id", "c9da6455-213d-42c9-9a79-3e9149a57833").containsEntry("Id@odata.type", "Edm.Guid")
                .containsEntry("Bytes", "AAH/").containsEntry("Bytes@odata.type", "Edm.Binary")
                .containsEntry("Real", -0.0).containsEntry("Real@odata.type", "Edm.Double")
                .containsEntry("Nan@odata.type", "Edm.Double")
                .containsEntry("Small", Integer.MAX_VALUE).containsEntry("Flag", false).containsEntry("Text", "")
                .doesNotContainKeys("Small@odata.type", "Flag@odata.type", "Text@odata.type", "Gone");
    }

    @Test
    void readingKeepsEveryValueAndDropsMetadata() {
        TableEntity entity = new TableEntity("p", "r")
                .addProperty("When", OffsetDateTime.parse("9999-12-31T23:59:59.9999999Z"))
                .addProperty("Big", Long.MAX_VALUE)
                .addProperty("Real", 0.30000000000000004)
                .addProperty("Inf", "-Infinity").addProperty("Inf@odata.type", "Edm.Double")
                .addProperty("Id", UUID.fromString("00000000-0000-0000-0000-000000000001"))
                .addProperty("Bytes", new byte[] {7})
                .addProperty("odata.etag", "W/\"x\"")
                .addProperty("Timestamp", OffsetDateTime.parse("2026-01-01T00:00:00Z"));

        Row row = EdmCodec.read(entity);

        assertThat(row.properties()).extracting(RowProperty::name)
                .containsExactlyInAnyOrder("When", "Big", "Real", "Inf", "Id", "Bytes");
        assertThat(value(row, "When")).isEqualTo(ticks("9999-12-31T23:59:59.9999999Z"));
        assertThat(value(row, "Big")).isEqualTo(Long.MAX_VALUE);
        assertThat(value(row, "Real")).isEqualTo(0.30000000000000004);
        assertThat(value(row, "Inf")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(value(row, "Id")).isEqualTo("00000000-0000-0000-0000-000000000001");
        assertThat(value(row, "Bytes")).isEqualTo(new byte[] {7});
        assertThat(row.timestamp()).as("the service's Timestamp rides along, not as a property")
                .isEqualTo(ticks("2026-01-01T00:00:00Z"));
        assertThat(EdmCodec.write(row).getProperties()).as("and is never written").doesNotContainKey("Timestamp");
    }

    private static Object value(Row row, String name) {
        return row.properties().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow().value();
    }
}
