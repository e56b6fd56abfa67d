package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanFold;
import io.tablescan.status.ScanTotals;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A backup's or a restore's progress while its tables' scans run, on a fake clock. */
class SetProgressTest {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicLong now = new AtomicLong(1_000_000);

    SetProgress progress(String what, long total) {
        return new SetProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), now::get, what, total);
    }

    /** Scan {@code id} of a table restored: {@code rows} rows written so far. */
    static ScanTotals table(String id, long rows) {
        return table(id, rows, 1_000_000);
    }

    /** As above, for a scan begun at {@code startMillis} (before the progress began: a resumed scan's). */
    static ScanTotals table(String id, long rows, long startMillis) {
        ScanSpec spec = ScanSpec.newBuilder().setScanId(id).setSource(new TableRef("export", id))
                .setDestination(new TableRef("d", id)).setPageSize(1000).setPageBudget(5)
                .setCreatedAtMillis(startMillis).build();
        ScanStatus s = ScanFold.apply(null, new ScanEventBuilder(id).started(spec).emitted(ItemKind.ENTITY_BATCH)
                .emitted(ItemKind.ENTITY_BATCH).build());
        s = ScanFold.apply(s, new ScanEventBuilder(id).done(ItemKind.ENTITY_BATCH, 0,
                new ItemHandler.Result(List.of(), 0, rows, 1)).build());
        return new ScanTotals(id, s);
    }

    @Test
    void aLineEveryFiveSecondsWithTheRowsOfAllTablesTheirRateAndTimeLeft() {
        SetProgress progress = progress("row writes", 10_000);
        for (int second = 1; second <= 15; second++) { // two tables at once, 100 rows/s each
            now.addAndGet(1_000);
            progress.seen(table("a", second * 100L));
            progress.seen(table("b", second * 100L));
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        // printed as table a reported: b's figure is of a second before
        assertThat(lines.get(0)).isEqualTo("  900 of 10,000 row writes, 180 rows/s, 0:05");
        assertThat(lines.get(1)).as("after 5 s of figures, the time left").isEqualTo(
                "  1,900 of 10,000 row writes, 200 rows/s, 0:10, about 0:41 left");
        assertThat(lines.get(2)).isEqualTo("  2,900 of 10,000 row writes, 200 rows/s, 0:15, about 0:36 left");
    }

    @Test
    void aResumedScansRowsOfTheEarlierRunAreNotInTheFirstRate() {
        SetProgress progress = progress("rows read", 0);
        for (int second = 1; second <= 5; second++) {
            now.addAndGet(1_000);
            progress.seen(table("a", 16_000 + second * 100L, 1)); // begun long before this run
        }
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly("  16,500 rows read, 80 rows/s, 0:05"); // 400 rows since it was first seen, in 5 s
    }

    @Test
    void aTableThatEndedKeepsItsRowsAndABackupWithoutTotalShowsNoTimeLeft() {
        SetProgress progress = progress("rows read", 0);
        now.addAndGet(2_000);
        progress.seen(table("a", 700)); // ended: no more figures of it
        now.addAndGet(3_000);
        progress.seen(table("b", 300));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("  1,000 rows read, 200 rows/s, 0:05\n");
    }
}
