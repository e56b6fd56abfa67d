package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A query response's rows typed from the service's own text, and a row's insert body in the service's forms. */
class EntityJsonTest {
    private static List<Row> rows(String json) throws IOException {
        return EntityJson.rows(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyTypeIsReadFromItsAnnotationOrFromJsonAlone() throws IOException {
        List<Row> rows = rows("""
                {"odata.metadata":"http://x/$metadata#t","value":[{"odata.etag":"W/\\"1\\"","PartitionKey":"p","RowKey":"r",
                "Timestamp":"2026-11-25T23:00:00.1234567Z","s":"text","i32":-5,"big@odata.type":"Edm.Int64","big":"9223372036854775807",
                "d":0.5,"whole@odata.type":"Edm.Double","whole":2.0,"nan@odata.type":"Edm.Double","nan":"NaN",
                "ninf":"-Infinity","ninf@odata.type":"Edm.Double","b":true,
                "when@odata.type":"Edm.DateTime","when":"1601-01-01T00:00:00.0000000Z",
                "id@odata.type":"Edm.Guid","id":"C9DA6455-213D-42C9-9A79-3E9149A57833",
                "bin@odata.type":"Edm.Binary","bin":"AAH/"}],"more":{"ignored":[1,2]}}""");

        assertThat(rows).hasSize(1);
        Row row = rows.get(0);
        assertThat(row.partitionKey()).isEqualTo("p");
        assertThat(row.rowKey()).isEqualTo("r");
        assertThat(row.timestamp()).isEqualTo(EdmCodec.toTicks(Instant.parse("2026-11-25T23:00:00.1234567Z")));
        assertThat(row.properties()).containsExactly(
                new RowProperty("s", EdmType.STRING, "text"),
                new RowProperty("i32", EdmType.INT32, -5),
                new RowProperty("big", EdmType.INT64, Long.MAX_VALUE),
                new RowProperty("d", EdmType.DOUBLE, 0.5),
                new RowProperty("whole", EdmType.DOUBLE, 2.0),
                new RowProperty("nan", EdmType.DOUBLE, Double.NaN),
                new RowProperty("ninf", EdmType.DOUBLE, Double.NEGATIVE_INFINITY), // annotation after its value
                new RowProperty("b", EdmType.BOOLEAN, true),
                new RowProperty("when", EdmType.DATETIME, EdmCodec.toTicks(Instant.parse("1601-01-01T00:00:00Z"))),
                new RowProperty("id", EdmType.GUID, "C9DA6455-213D-42C9-9A79-3E9149A57833"), // the service's text, kept
                new RowProperty("bin", EdmType.BINARY, new byte[] {0, 1, (byte) 255}));
    }

    @Test
    void aSelectWithoutTimestampAndAnEmptyPageReadAsSuch() throws IOException {
        assertThat(rows("{\"value\":[{\"PartitionKey\":\"\",\"RowKey\":\"'\"}]}"))
                .containsExactly(new Row("", "'", List.of()));
        assertThat(rows("{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}]}").get(0).timestamp()).isNull();
        assertThat(rows("{\"odata.metadata\":\"m\",\"value\":[]}")).isEmpty();
    }

    @Test
    void aValueThatIsNotItsAnnotatedTypeOrAnUnknownTypeIsAnError() {
        assertThatThrownBy(() -> rows("{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"x@odata.type\":\"Edm.Int64\",\"x\":\"ten\"}]}"))
                .isInstanceOf(IOException.class).hasMessageContaining("property x is not a valid Edm.Int64");
        assertThatThrownBy(() -> rows("{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"x@odata.type\":\"Edm.Decimal\",\"x\":\"1\"}]}"))
                .isInstanceOf(IOException.class).hasMessageContaining("unsupported type Edm.Decimal");
        assertThatThrownBy(() -> rows("{\"value\":[{\"RowKey\":\"r\"}]}")).isInstanceOf(IOException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1601-01-01T00:00:00.0000000Z", "9999-12-31T23:59:59.9999999Z", "2013-01-10T08:10:28.0000558Z",
        "1969-12-31T23:59:59.9999999Z", "1970-01-01T00:00:00Z", "2020-02-29T12:00:00.5Z", "2024-06-30T23:59:59.123456789Z",
        "2024-06-30T23:59:59.1234567+02:00"})
    void dateTimeTextBecomesTheTicksOfItsInstant(String text) {
        Instant instant = java.time.OffsetDateTime.parse(text).toInstant();
        assertThat(io.tablescan.spi.ValueText.ticks(text)).isEqualTo(EdmCodec.toTicks(instant));
    }

    /** Another client may write a DateTime without 7 fraction digits or an Int64 with leading zeros: kept as sent. */
    @Test
    void aDateTimeOrInt64InAnotherTextThanTheCanonicalOneIsWrittenBackAsItWasRead() throws IOException {
        Row row = rows("""
                {"value":[{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.DateTime","a":"1601-01-01T00:00:00Z",
                "b@odata.type":"Edm.DateTime","b":"2024-06-30T23:59:59.1Z","c@odata.type":"Edm.DateTime","c":"2024-06-30T23:59:59.1000000Z",
                "n@odata.type":"Edm.Int64","n":"0042","m@odata.type":"Edm.Int64","m":"-7",
                "g@odata.type":"Edm.Guid","g":"C9DA6455-213D-42C9-9A79-3E9149A57833"}]}""").get(0);
        List<RowProperty> p = row.properties();
        assertThat(p.get(0).text()).isEqualTo("1601-01-01T00:00:00Z");
        assertThat(p.get(0).value()).isEqualTo(io.tablescan.spi.ValueText.ticks("1601-01-01T00:00:00.0000000Z"));
        assertThat(p.get(1).text()).isEqualTo("2024-06-30T23:59:59.1Z");
        assertThat(p.get(2).text()).as("canonical: nothing to keep").isNull();
        assertThat(p.get(3)).isEqualTo(new RowProperty("n", EdmType.INT64, 42L, "0042"));
        assertThat(p.get(4).text()).isNull();
        // Two texts of one instant are two values to any other client.
        assertThat(p.get(1)).isNotEqualTo(new RowProperty("b", EdmType.DATETIME, p.get(2).value()));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityJson.write(row, out);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"a\":\"1601-01-01T00:00:00Z\"")
                .contains("\"b\":\"2024-06-30T23:59:59.1Z\"").contains("\"c\":\"2024-06-30T23:59:59.1000000Z\"")
                .contains("\"n\":\"0042\"").contains("\"m\":\"-7\"").contains("\"g\":\"C9DA6455-213D-42C9-9A79-3E9149A57833\"");
        // The same through the export's JSON lines.
        Row again = RowJson.parse(RowJson.toJson(row));
        assertThat(again).isEqualTo(row);
        assertThat(new String(RowJson.toJson(again), StandardCharsets.UTF_8)).contains("\"a\":\"1601-01-01T00:00:00Z\"")
                .contains("\"n\":\"0042\"");
    }

    @Test
    void anInsertBodyHasTheKeysAndEveryValueInTheServicesFormButNoTimestamp() throws IOException {
        Row row = new Row("p'", "r", java.util.Arrays.asList(
                new RowProperty("When", EdmType.DATETIME, EdmCodec.toTicks(Instant.parse("2013-01-10T08:10:28.0000558Z"))),
                new RowProperty("Big", EdmType.INT64, Long.MIN_VALUE),
                new RowProperty("Whole", EdmType.DOUBLE, 2.0),
                new RowProperty("Nan", EdmType.DOUBLE, Double.NaN),
                new RowProperty("Small", EdmType.INT32, 7),
                new RowProperty("Gone", EdmType.STRING, null)), 17L);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityJson.write(row, out);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("{\"PartitionKey\":\"p'\",\"RowKey\":\"r\","
                + "\"When@odata.type\":\"Edm.DateTime\",\"When\":\"2013-01-10T08:10:28.0000558Z\","
                + "\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"-9223372036854775808\","
                + "\"Whole@odata.type\":\"Edm.Double\",\"Whole\":2.0,\"Nan@odata.type\":\"Edm.Double\",\"Nan\":\"NaN\","
                + "\"Small\":7}");
    }
}
