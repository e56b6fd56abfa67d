package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An export's files stage: the time left does not jump when its readers pause (a file closed, a block uploaded). */
class ExportFilesLeftTest {
    static final long SECOND = 1_000_000_000L;

    @Test
    void aPauseOfTheReadersMovesTheTimeLeftLittleAndNoneIsMadeUpAtTheStart() {
        // 60,000 rows: 2,000 rows/s for 20 s, then 10 s in which a file is closed and uploaded (100 rows).
        assertThat(ExportCommand.filesLeft(40_000, 60_000, 20 * SECOND)).isEqualTo(", about 0:10 left");
        assertThat(ExportCommand.filesLeft(40_100, 60_000, 30 * SECOND)).isEqualTo(", about 0:15 left");
        // (The rate of the last 10 s, 10 rows/s, said about 33 minutes.)
        assertThat(ExportCommand.filesLeft(5_000, 60_000, 4 * SECOND)).isEmpty();
        assertThat(ExportCommand.filesLeft(60_000, 60_000, 40 * SECOND)).isEmpty();
    }
}
