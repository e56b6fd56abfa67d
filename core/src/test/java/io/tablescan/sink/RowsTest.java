package io.tablescan.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.Property;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ValueText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows between Avro and the SPI keep a DateTime's or Int64's service text beside its value. */
class RowsTest {
    @Test
    void aServiceTextThatIsNotCanonicalTravelsBesideItsValueAndComesBackWithIt() {
        List<RowProperty> properties = List.of(
                new RowProperty("a", EdmType.DATETIME, ValueText.ticks("1601-01-01T00:00:00Z"), "1601-01-01T00:00:00Z"),
                new RowProperty("b", EdmType.DATETIME, ValueText.ticks("2024-06-30T23:59:59.1000000Z")),
                new RowProperty("n", EdmType.INT64, 42L, "0042"),
                new RowProperty("m", EdmType.INT64, -7L),
                new RowProperty("g", EdmType.GUID, "C9DA6455-213D-42C9-9A79-3E9149A57833"));
        List<Property> wire = Rows.toWire(properties);
        // The value stays the documented long (a reader that ignores the text reads the right instant or number).
        assertThat(wire.get(0).getValue()).isEqualTo(ValueText.ticks("1601-01-01T00:00:00.0000000Z"));
        assertThat(wire.get(0).getText()).isEqualTo("1601-01-01T00:00:00Z");
        assertThat(wire.get(1).getText()).isNull();
        assertThat(wire.get(2).getValue()).isEqualTo(42L);
        assertThat(wire.get(2).getText()).isEqualTo("0042");
        assertThat(wire.get(3).getText()).isNull();

        List<RowProperty> back = Rows.of(wire);
        assertThat(back).isEqualTo(properties);
        assertThat(back.get(0).value()).isEqualTo(ValueText.ticks("1601-01-01T00:00:00.0000000Z"));
        assertThat(back.get(2).value()).isEqualTo(42L);
    }

    @Test
    void aCanonicalTextIsNotKeptSoEqualValuesCompareEqual() {
        long ticks = ValueText.ticks("2024-06-30T23:59:59.1000000Z");
        assertThat(new RowProperty("b", EdmType.DATETIME, ticks, "2024-06-30T23:59:59.1000000Z"))
                .isEqualTo(new RowProperty("b", EdmType.DATETIME, ticks)).extracting(RowProperty::text).isNull();
        assertThat(new RowProperty("b", EdmType.DATETIME, ticks, "2024-06-30T23:59:59.1Z"))
                .isNotEqualTo(new RowProperty("b", EdmType.DATETIME, ticks));
        assertThat(new RowProperty("n", EdmType.INT64, 0L, "0").text()).isNull();
        assertThat(new RowProperty("n", EdmType.INT64, 0L, "-0").text()).isEqualTo("-0");
        assertThat(new RowProperty("n", EdmType.INT64, 5L, "+5").text()).isEqualTo("+5");
        assertThat(new RowProperty("n", EdmType.INT64, Long.MIN_VALUE, "-9223372036854775808").text()).isNull();
        assertThat(new RowProperty("s", EdmType.STRING, "x", "y").text()).as("a string's value is its text").isNull();
    }
}
