package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runner.ClusterJob;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job's identity (what a rerun attaches by) is its definition: not its scan id or start time, nor the order of
 * its maps; anything that changes what it does makes another job. Start's job options are checked before Kafka.
 */
class ClusterJobIdentityTest {
    private static ScanSpec copy(String destTable, Map<String, Long> limits) {
        return ScanSpecs.copy().from(new TableRef("prod", "Packages")).to(new TableRef("backup", destTable))
                .limits(limits).build();
    }

    @Test
    void theSameDefinitionIsTheSameJobWhateverItsScanIdAndMapOrder() {
        Map<String, Long> one = new LinkedHashMap<>();
        one.put("read", 100L);
        one.put("write", 50L);
        Map<String, Long> other = new LinkedHashMap<>();
        other.put("write", 50L);
        other.put("read", 100L);
        ScanSpec first = copy("Copy", one);
        ScanSpec second = ScanSpec.newBuilder(copy("Copy", other)).setCreatedAtMillis(first.getCreatedAtMillis() + 5)
                .build();

        assertThat(second.getScanId()).isNotEqualTo(first.getScanId());
        assertThat(ClusterJob.identity(second)).isEqualTo(ClusterJob.identity(first)).hasSize(24);
        assertThat(ClusterJob.identity(copy("Other", one))).isNotEqualTo(ClusterJob.identity(first));
        assertThat(ClusterJob.identity(copy("Copy", Map.of("read", 100L)))).isNotEqualTo(ClusterJob.identity(first));
        ScanSpec verify = ScanSpecs.verify().from(new TableRef("prod", "Packages")).to(new TableRef("backup", "Copy"))
                .build();
        assertThat(ClusterJob.identity(verify)).isNotEqualTo(ClusterJob.identity(copy("Copy", null)));
    }

    @Test
    void startCountTakesNoTargetNoOtherJobAndNoSelect() {
        String[] count = TargetOptionsTest.with(TargetOptionsTest.START, "--count");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(count, "--dest-account", "b", "--dest-table", "dst")), 2,
                "--count takes no other job and no target");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(count, "--verify")), 2, "--count takes no other job");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(count, "--select", "A")), 2,
                "--select does not go with --count");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(TargetOptionsTest.START, "--dest-account", "b",
                "--dest-table", "dst", "--dry-run")), 2, "--dry-run with --delete or --mirror");
    }
}
