package io.tablescan.ledger.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A scan's progress points: bounded while it runs and once it ended, its first and last kept, none out of order. */
class ScanBoardTest {
    @Test
    void aLongScanKeepsItsShapeInFewPoints() {
        ScanBoard board = new ScanBoard();
        for (int i = 1; i <= 5_000; i++) {
            board.apply(status(ScanState.RUNNING, i * 10L, i * 1_000L));
        }
        board.apply(status(ScanState.RUNNING, 50_000, 4_999_999L)); // an earlier time (another worker's clock): no point
        List<long[]> running = board.scan("scan-x").orElseThrow().points();
        assertThat(running.size()).isBetween(ScanBoard.POINTS / 2, ScanBoard.POINTS);
        assertThat(running.get(0)).containsExactly(1_000, 10);
        assertThat(running.get(running.size() - 1)).containsExactly(5_000_000, 50_000);
        assertThat(running).isSortedAccordingTo((a, b) -> Long.compare(a[0], b[0]));

        board.apply(status(ScanState.COMPLETED, 50_000, 5_000_001L));
        List<long[]> ended = board.scan("scan-x").orElseThrow().points();
        assertThat(ended.size()).isBetween(ScanBoard.ENDED_POINTS / 2, ScanBoard.ENDED_POINTS);
        assertThat(ended.get(0)).containsExactly(1_000, 10);
        assertThat(ended.get(ended.size() - 1)).containsExactly(5_000_001, 50_000);
    }

    private static ScanStatus status(ScanState state, long rows, long millis) {
        ScanSpec spec = ScanSpec.newBuilder().setScanId("scan-x").setSource(new TableRef("a", "t")).setPageSize(100)
                .setPageBudget(1).setCreatedAtMillis(0).setDestination(new TableRef("b", "t")).build();
        ItemCounts none = new ItemCounts(0, 0, 0);
        return ScanStatus.newBuilder().setScanId("scan-x").setSpec(spec).setState(state).setEmitted(none).setDone(none)
                .setFailed(none).setSkipped(none).setRowsRead(rows).setRowsWritten(rows).setRequests(1).setMaxDepth(1)
                .setStartMillis(0).setLastEventMillis(millis).setRowsPerSecond(1).setRateWindowStartMillis(0)
                .setRateWindowStartRows(0).setErrors(List.of()).build();
    }
}
