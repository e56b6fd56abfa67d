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
import org.junit.jupiter.api.Test;

/** A local job stopped for 10 minutes and resumed: its duration and rates are of the time it ran. */
class ScanFoldResumeTest {
    static final long T0 = 1_000_000;

    private static ScanEvent at(long seconds, ScanEventBuilder builder) {
        ScanEvent event = builder.build();
        event.setTimeMillis(T0 + seconds * 1000);
        return event;
    }

    private static ScanEventBuilder written(long rows) {
        return new ScanEventBuilder("s").done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(List.of(), 0, rows, 1));
    }

    @Test
    void theTimeAStoppedJobWaitedIsNoTimeOfTheScanAndItsRateStartsOverOnResume() {
        ScanSpec spec = ScanSpec.newBuilder().setScanId("s").setSource(new TableRef("a", "Source"))
                .setDestination(new TableRef("a", "Dest")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(T0)
                .build();
        ScanEventBuilder seed = new ScanEventBuilder("s").started(spec).emitted(ItemKind.PREFIX_QUERY);
        for (int i = 0; i < 13; i++) {
            seed.emitted(ItemKind.ENTITY_BATCH);
        }
        ScanStatus s = ScanFold.apply(null, at(0, seed));
        s = ScanFold.apply(s, at(0, new ScanEventBuilder("s").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 12_000, 0, 12))));
        for (int second = 10; second <= 60; second += 10) { // 100 rows/s for a minute, then killed
            s = ScanFold.apply(s, at(second, written(1_000)));
        }
        assertThat(s.getRowsPerSecond()).isEqualTo(100);

        s = ScanFold.apply(s, at(660, new ScanEventBuilder("s").resumed())); // rerun 10 minutes later
        ScanTotals resumed = new ScanTotals("s", s);
        assertThat(resumed.elapsedMillis()).as("ran a minute, stopped 10").isEqualTo(60_000);
        assertThat(resumed.rowsPerSecond()).as("not the stopped run's rate").isZero();
        assertThat(resumed.runningMillis(T0 + 665_000)).isEqualTo(65_000);
        assertThat(resumed.counter(Counters.RESUMED)).isEqualTo(1);

        s = ScanFold.apply(s, at(665, written(500)));
        assertThat(s.getRowsPerSecond()).as("this run's rows over this run's time").isEqualTo(100);
        for (int second = 670; second <= 720; second += 10) {
            s = ScanFold.apply(s, at(second, written(second == 720 ? 500 : 1_000)));
        }
        ScanTotals done = new ScanTotals("s", s);
        assertThat(done.state()).isEqualTo(ScanState.COMPLETED);
        assertThat(done.rowsCopied()).isEqualTo(12_000);
        assertThat(done.elapsedMillis()).as("two minutes of running").isEqualTo(120_000);
        assertThat(done.rowsPerSecond()).as("average over the time it ran").isEqualTo(100);
    }
}
