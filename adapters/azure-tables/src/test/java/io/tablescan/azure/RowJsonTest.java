package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rows as the REST API's insert JSON: the exact text of every type, and back. */
class RowJsonTest {
    static String json(Row row) {
        return new String(RowJson.toJson(row), StandardCharsets.UTF_8);
    }

    static Row parse(String json) {
        return RowJson.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyTypeInTheServicesOwnForm() {
        long ticks = EdmCodec.toTicks(Instant.parse("2026-11-23T10:00:00.1234567Z"));
        Row row = new Row("p'\"\\\u0001\uFFFF", "r/#?", List.of(
                new RowProperty("S", EdmType.STRING, "a\"b\n"),
                new RowProperty("I", EdmType.INT32, -7),
                new RowProperty("L", EdmType.INT64, Long.MAX_VALUE),
                new RowProperty("D", EdmType.DOUBLE, 0.1),
                new RowProperty("B", EdmType.BOOLEAN, true),
                new RowProperty("T", EdmType.DATETIME, ticks),
                new RowProperty("G", EdmType.GUID, "c9da6455-213d-42c9-9a79-3e9149a57833"),
                new RowProperty("X", EdmType.BINARY, new byte[] {0, -1, 2}),
                new RowProperty("N", EdmType.STRING, null)));

        assertThat(json(row)).isEqualTo("{\"PartitionKey\":\"p'\\\"\\\\\\u0001\uFFFF\",\"RowKey\":\"r/#?\","
                + "\"S\":\"a\\\"b\\n\",\"I\":-7,"
                + "\"L@odata.type\":\"Edm.Int64\",\"L\":\"9223372036854775807\","
                + "\"D@odata.type\":\"Edm.Double\",\"D\":0.1,\"B\":true,"
                + "\"T@odata.type\":\"Edm.DateTime\",\"T\":\"2026-11-23T10:00:00.1234567Z\","
                + "\"G@odata.type\":\"Edm.Guid\",\"G\":\"c9da6455-213d-42c9-9a79-3e9149a57833\","
                + "\"X@odata.type\":\"Edm.Binary\",\"X\":\"AP8C\"}");
        List<RowProperty> withValues = new ArrayList<>(row.properties());
        withValues.removeIf(p -> p.value() == null);
        assertThat(parse(json(row))).isEqualTo(new Row(row.partitionKey(), row.rowKey(), withValues));
    }

    @Test
    void doublesKeepEveryBit() {
        double[] values = {-0.0, 5e-324, Double.MAX_VALUE, 1e21, 3.0, Math.nextUp(1.0), Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double d : values) {
            Row row = new Row("p", "r", List.of(new RowProperty("D", EdmType.DOUBLE, d)));
            Object back = parse(json(row)).properties().getFirst().value();
            assertThat(Double.doubleToRawLongBits((Double) back)).as("%s", d).isEqualTo(Double.doubleToRawLongBits(d));
        }
        assertThat(json(new Row("p", "r", List.of(new RowProperty("D", EdmType.DOUBLE, Double.NaN)))))
                .endsWith("\"D\":\"NaN\"}");
    }

    @Test
    void keysAsAJsonArray() {
        assertThat(new String(RowJson.keysJson(new Row("a\"b", "", List.of())), StandardCharsets.UTF_8))
                .isEqualTo("[\"a\\\"b\",\"\"]");
    }

    @Test
    void readsTheServicesOwnResponseJson() {
        Row row = parse("{\"odata.etag\":\"W/\\\"x\\\"\",\"PartitionKey\":\"p\",\"RowKey\":\"r\","
                + "\"Timestamp\":\"2026-11-23T10:00:00.1234567Z\",\"N\":5,\"F\":2.5,\"L@odata.type\":\"Edm.Int64\",\"L\":\"5\"}");

        assertThat(row.properties()).containsExactly(new RowProperty("N", EdmType.INT32, 5),
                new RowProperty("F", EdmType.DOUBLE, 2.5), new RowProperty("L", EdmType.INT64, 5L));
        assertThat(row.timestamp()).as("the service's Timestamp: the row's, not a property")
                .isEqualTo(EdmCodec.toTicks(Instant.parse("2026-11-23T10:00:00.1234567Z")));
    }

    @Test
    void theServicesTimestampFollowsTheKeysForReferenceAndReadsBackAsNoProperty() {
        long ticks = EdmCodec.toTicks(Instant.parse("2026-11-23T10:00:00.1Z"));
        Row row = new Row("p", "r", List.of(new RowProperty("N", EdmType.INT32, 5)), ticks);

        String json = new String(RowJson.toJson(row), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"Timestamp@odata.type\":\"Edm.DateTime\","
                + "\"Timestamp\":\"2026-11-23T10:00:00.1000000Z\",\"N\":5}");
        Row back = parse(json);
        assertThat(back.properties()).containsExactly(new RowProperty("N", EdmType.INT32, 5));
        assertThat(back.timestamp()).isEqualTo(ticks);
        assertThat(new String(RowJson.toJson(new Row("p", "r", List.of())), StandardCharsets.UTF_8))
                .as("a row read without one has none").doesNotContain("Timestamp");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[1]", "{\"PartitionKey\":\"p\"}", "{\"PartitionKey\":\"p\",\"RowKey\":1}",
        "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"A\":{}}", "{\"PartitionKey\":\"p\",\"RowKey\":\"r\"} x",
        "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"L@odata.type\":\"Edm.Int64\",\"L\":\"x\"}",
        "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"L@odata.type\":\"Edm.Nope\",\"L\":\"x\"}",
        "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"B@odata.type\":\"Edm.Boolean\",\"B\":\"yes\"}",
        "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":12345678901}",
        "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"T@odata.type\":\"Edm.DateTime\",\"T\":5}", "{\"PartitionKey\":\"p\",\"RowKey\":\"r\""})
    void anythingElseIsRefusedWithAReason(String json) {
        assertThatThrownBy(() -> parse(json)).isInstanceOf(IllegalArgumentException.class).message().isNotBlank();
    }
}
