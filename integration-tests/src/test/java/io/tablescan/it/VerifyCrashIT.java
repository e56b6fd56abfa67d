package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.status.ScanTotals;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A 30,000-row verify on a cluster of worker processes killed with SIGKILL at random moments and restarted (see
 * {@link CrashIT}): its counts and its differences topic stay exact, each difference once. Then the same verify and
 * a mirror seeded with start. In the release tier; {@link KillMatrixIT} runs the same verify on small tables.
 */
@Tag("release")
class VerifyCrashIT {
    @Test
    void workersKilledWithSigkillMidVerifyCountEachDifferenceOnce() throws Exception {
        List<String> kills = KillCases.runAlone("verify-crashes", new KillCases.Verify("verifycrash", 30_000, 250), 6,
                3_000, ScanTotals::rowsRead, CrashIT.KINDS);
        assertThat(kills).hasSizeGreaterThanOrEqualTo(2);
    }
}
