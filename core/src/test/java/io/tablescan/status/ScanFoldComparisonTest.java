package io.tablescan.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import java.util.List;
import java.util.Map;
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
                new ItemHandler.Result(List.of(), 100, 0, 2, 3, counters(1, 2, 3, 0))).build());
        status = ScanFold.apply(status, new ScanEventBuilder("s").done(ItemKind.PARTITION_QUERY, 1,
                new ItemHandler.Result(List.of(), 50, 0, 1, 0, counters(4, 0, 1, 2))).build());

        ScanTotals t = new ScanTotals("s", status);
        assertThat(t.state()).isEqualTo(ScanState.COMPLETED);
        assertThat(named(t)).containsExactly(5L, 2L, 4L, 2L);
        assertThat(t.rowsCopied()).as("a verify writes nothing: its pace is its rows read").isEqualTo(150);
        assertThat(status.getRowsMissing() + status.getRowsDiffering() + status.getRowsExtra()
                + status.getRowsDeleted()).as("new writers leave the legacy fields 0").isZero();
    }

    @Test
    void countsOfAnEventAndAStatusOfTheVersionBeforeNamedCountersLandInTheMap() {
        ScanEvent started = new ScanEventBuilder("s").started(verify()).emitted(ItemKind.PREFIX_QUERY)
                .emitted(ItemKind.PARTITION_QUERY).build();
        ScanEvent old = new ScanEventBuilder("s").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 100, 0, 2)).build();
        // As a worker of the previous version wrote it: the counts in fields of their own, no counters.
        old.setRowsMissing(1L);
        old.setRowsDiffering(2L);
        old.setRowsExtra(3L);
        old.setRowsDeleted(4L);
        ScanStatus status = ScanFold.apply(ScanFold.apply(null, started), old);
        assertThat(status.getCounters()).containsExactlyInAnyOrderEntriesOf(Map.of(Counters.MISSING, 1L,
                Counters.DIFFERENT, 2L, Counters.EXTRA, 3L, Counters.DELETED, 4L));

        // A status the previous version's ledger folded: its counts in those fields; a new event adds to them.
        ScanStatus oldStatus = ScanFold.apply(null, started);
        oldStatus.setRowsMissing(10L);
        oldStatus.setRowsDeleted(20L);
        ScanStatus folded = ScanFold.apply(oldStatus, new ScanEventBuilder("s").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 100, 0, 2, 0, counters(1, 0, 0, 1))).build());
        assertThat(named(new ScanTotals("s", folded))).containsExactly(11L, 0L, 0L, 21L);
    }

    private static Map<String, Long> counters(long missing, long different, long extra, long deleted) {
        return Map.of(Counters.MISSING, missing, Counters.DIFFERENT, different, Counters.EXTRA, extra,
                Counters.DELETED, deleted);
    }

    private static List<Long> named(ScanTotals t) {
        return List.of(t.counter(Counters.MISSING), t.counter(Counters.DIFFERENT), t.counter(Counters.EXTRA),
                t.counter(Counters.DELETED));
    }
}
