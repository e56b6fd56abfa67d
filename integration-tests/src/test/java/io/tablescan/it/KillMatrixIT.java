package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.control.ScanStarter;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default tier's kill test: a broker, a ledger and two processes of every worker kind run a copy, a copy to a
 * sink that buffers until its commit point, rows published to a topic, a verify, an export and a delete together on
 * small tables (their reads capped so that they last about 25 s), while one kill schedule kills a worker with SIGKILL each time they have read some more rows (every kind at
 * least once, the copy-worker first: it holds the buffering sink's rows) and restarts it. Each result is then checked
 * by another reader than the one that wrote ({@link KillCases}). The same scans at full size, one to a cluster, are
 * in the release tier. On the fork's shared cluster, last of {@link ClusterIT}'s tests: it leaves the cluster with
 * workers killed and restarted, and the delete's check stops the copy-workers.
 */
@ExtendWith(SharedCluster.class)
abstract class KillMatrixIT { // run by ClusterIT, on the fork's one cluster
    @Test
    void everyKindOfScanOnWorkersKilledWithSigkillLosesNothingAndCountsNothingTwice(@TempDir Path folder,
            CrashIT.Cluster cluster) throws Exception {
        // Each scan's reads capped to last about 25 s, so that the kills land while all of them run.
        Map<KillCases.Case, Long> caps = new LinkedHashMap<>();
        caps.put(new KillCases.Copy("matrixcopy", 4_800), 192L);
        caps.put(new KillCases.Buffering("matrixbuffer", 3_600), 144L);
        caps.put(new KillCases.Topic("matrixtopic", 2_400), 102L);
        caps.put(new KillCases.Verify("matrixverify", 3_600, 30), 144L);
        caps.put(new KillCases.Export("matrixexport", 3_000, folder), 120L);
        // about 1,800 of its rows selected; last, as its check stops the copy-workers
        caps.put(new KillCases.Delete("matrixdelete", 3_600, 400), 72L);
        List<KillCases.Case> cases = List.copyOf(caps.keySet());
        for (KillCases.Case scan : cases) {
            scan.prepare();
        }
        List<String> ids = new ArrayList<>();
        for (KillCases.Case scan : cases) {
            ScanSpec spec = ScanSpec.newBuilder(scan.spec(cluster)).setLimits(Map.of("read", caps.get(scan)))
                    .build();
            ScanStarter.start(cluster.kafka, spec);
            ids.add(spec.getScanId());
        }
        List<String> kills = cluster.killDuring(ids, 6, 1_800, ScanTotals::rowsRead,
                List.of("copy", "partition", "discovery"));
        assertThat(kills).as("every kind of worker killed mid-scan, and some twice").hasSizeGreaterThanOrEqualTo(5);
        for (int i = 0; i < cases.size(); i++) {
            cases.get(i).check(cluster, ScanAwait.ended(cluster.kafka, ids.get(i), Duration.ofMinutes(6)));
        }
    }
}
