package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A profile's figures from rows whose answers are known. */
class TableProfileTest {
    @Test
    void countsPartitionsTypesBucketsAndRowsNearTheLimits() {
        TableProfile a = new TableProfile();
        TableProfile b = new TableProfile();
        for (int p = 0; p < 2_500; p++) { // 2,500 partitions of 1 to 3 rows; half of them in each profile
            for (int r = 0; r <= p % 3; r++) {
                List<RowProperty> properties = new ArrayList<>(List.of(new RowProperty("N", EdmType.INT32, r)));
                if (r == 1) {
                    properties.add(new RowProperty("N2", EdmType.STRING, "ab"));
                }
                (p % 2 == 0 ? a : b).add(new Row(String.format("p%05d", p), "r" + r, properties, (long) p));
            }
        }
        b.add(new Row("big", "x".repeat(500), List.of(new RowProperty("N", EdmType.STRING,
                "y".repeat(460_000))), null));
        a.merge(b);

        assertThat(a.rows()).isEqualTo(834 + 833 * 2 + 833 * 3 + 1);
        assertThat(a.partitionCount()).isEqualTo(2_501);
        assertThat(a.catalog().properties().get("N")).containsOnlyKeys(EdmType.STRING, EdmType.INT32);
        assertThat(a.catalog().properties().get("N").get(EdmType.INT32).count()).isEqualTo(a.rows() - 1);
        assertThat(a.catalog().properties().get("N2").get(EdmType.STRING).maxBytes()).isEqualTo(4 + 2 * 2);
        Map<String, Object> map = a.toMap();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> buckets = (List<Map<String, Object>>) map.get("keySpace");
        assertThat(buckets.stream().mapToLong(x -> (Long) x.get("rows")).sum()).isEqualTo(a.rows());
        assertThat(buckets.stream().mapToLong(x -> (Long) x.get("partitions")).sum()).isEqualTo(2_501);
        assertThat(buckets).hasSizeBetween(800, 1_000); // about 1,000: a bucket ends at the partition that fills it
        assertThat(buckets.getFirst().get("fromPartitionKey")).isEqualTo("big"); // the service's key order
        assertThat(buckets.getLast().get("toPartitionKey")).isEqualTo("p02499");
        assertThat(buckets.getLast().get("newestTimestamp")).isEqualTo("1970-01-01T00:00:00.0002499Z");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> near = (Map<String, Map<String, Object>>) map.get("nearLimits");
        assertThat(near.get("entitySize").get("rows")).isEqualTo(0L); // 921,024 bytes: under 90% of 1 MiB
        assertThat(near.get("rowKey").get("rows")).isEqualTo(1L);
        assertThat(near.get("rowKey").get("examples")).isEqualTo(List.of(List.of("big", "x".repeat(500))));
        assertThat(a.text()).contains("2,501 partitions").contains("1 row a RowKey over 90%");
    }
}
