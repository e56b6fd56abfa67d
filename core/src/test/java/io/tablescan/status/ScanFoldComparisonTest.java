package io.tablescan.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A verify's and a mirror's findings travel from the items' results through scan events into the status. */
class ScanFoldComparisonTest {
    private static ScanSpec verify() {
        return ScanSpec.newBuilder().setScanId("s").setSource(new TableRef("a", "src")).setDestination(new TableRef("a",
                "dst")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1).setVerify(true).build();
    }

    @Test
    void countsOfDifferencesAddUpAndAVerifysRateCountsRowsRead() {
        ScanStatus status = ScanFold.apply(null, new ScanEventBuilder("s").started(verify())
                .emitted(ItemKind.PREFIX_QUERY).emitted(ItemKind.PARTITION_QUERY).build());
        status = ScanFold.apply(status, new ScanEventBuilder("s").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 100, 0, 2, 3, new ItemHandler.Compared(1, 2, 3, 0))).build());
        status = ScanFold.apply(status, new ScanEventBuilder("s").done(ItemKind.PARTITION_QUERY, 1,
                new ItemHandler.Result(List.of(), 50, 0, 1, 0, new ItemHandler.Compared(4, 0, 1, 2))).build());

        ScanTotals t = new ScanTotals("s", status);
        assertThat(t.state()).isEqualTo(ScanState.COMPLETED);
        assertThat(List.of(t.rowsMissing(), t.rowsDiffering(), t.rowsExtra(), t.rowsDeleted()))
                .containsExactly(5L, 2L, 4L, 2L);
        assertThat(t.rowsCopied()).as("a verify writes nothing: its pace is its rows read").isEqualTo(150);
    }
}
