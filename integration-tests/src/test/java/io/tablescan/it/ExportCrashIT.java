package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.status.ScanTotals;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once in files: a 20,000-row export's stage 1 on separate worker processes killed with SIGKILL at random
 * moments, then stage 2 and an import; every row is in exactly one listed file, and the restored table equals the
 * source. Then an import killed with SIGKILL mid-way and run again also restores the table exactly. In the release
 * tier; {@link KillMatrixIT} runs the same export on a small table.
 */
@Tag("release")
class ExportCrashIT {
    @Test
    void workersKilledDuringAnExportLeaveEveryRowInExactlyOneFile(@TempDir Path folder) throws Exception {
        List<String> kills = KillCases.runAlone("export-crashes", new KillCases.Export("exportcrash", 20_000, folder), 6,
                2_000, ScanTotals::rowsWritten, CrashIT.KINDS);
        assertThat(kills).isNotEmpty();
    }
}
