package io.tablescan.cli;

import static io.tablescan.cli.ProgressPrinterTest.running;
import static io.tablescan.cli.ProgressPrinterTest.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.status.ScanTotals;
import org.junit.jupiter.api.Test;

/** The lines of a scan's end that stand alone (the full summary is shown in ProgressPrinterTest). */
class ScanSummaryTest {
    @Test
    void anInterruptedCopySaysWhatTheDestinationHoldsAndHowToFinish() {
        assertThat(ScanSummary.interrupted(new ScanTotals("s1", running()), spec(), false))
                .isEqualTo("interrupted: table PackagesCopy holds part of the copy (480 rows written when stopped); "
                        + "run the same copy again to finish it: it is idempotent");
        assertThat(ScanSummary.interrupted(new ScanTotals("s1", null), spec(), false))
                .isEqualTo("interrupted before the copy started: nothing was copied to table PackagesCopy");
    }

    /** Work in hand stopped after it had written (its write cap's wait given up): the count is a floor, and says so. */
    @Test
    void anInterruptedCopyWhoseWorkInHandStoppedMidWriteSaysAtLeast() {
        assertThat(ScanSummary.interrupted(new ScanTotals("s1", running()), spec(), true))
                .isEqualTo("interrupted: table PackagesCopy holds part of the copy (at least 480 rows written when "
                        + "stopped: work in hand then stopped after writing more); run the same copy again to finish "
                        + "it: it is idempotent");
    }
}
