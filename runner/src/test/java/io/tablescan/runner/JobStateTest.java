package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job of several scans (a backup set) keeps each seeded stage's scan and its own values for a rerun. */
class JobStateTest {
    private static ScanSpec spec(String id) {
        return ScanSpec.newBuilder().setScanId(id).setSource(new TableRef("a", "T")).setPageSize(1000)
                .setPageBudget(5).setCreatedAtMillis(1_000).build();
    }

    @Test
    void aSeededStageIsFollowedByTheRerunAndAnUnseededOneStartsOver(@TempDir Path root) {
        try (JobState state = JobState.open(root, "k1", "backup", "2 tables", false)) {
            state.record("set", "set-1");
            state.stageStarting("A", spec("scan-a"));
            assertThat(state.resumable()).as("nothing seeded yet").isFalse();
            state.stageSeeded("A");
            state.stageStarting("B", spec("scan-b")); // killed before B was seeded
        }
        try (JobState rerun = JobState.open(root, "k1", "backup", "2 tables", false)) {
            assertThat(rerun.resumable()).isTrue();
            assertThat(rerun.recorded("set")).isEqualTo("set-1");
            assertThat(rerun.stageSpec("A")).map(ScanSpec::getScanId).contains("scan-a");
            assertThat(rerun.stageSpec("B")).isEmpty();
            assertThat(rerun.stages()).as("B's scan, maybe seeded by a run killed before it said so, is cancelled")
                    .extracting(JobState.Stage::name, s -> s.spec().getScanId(), JobState.Stage::seeded)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("A", "scan-a", true),
                            org.assertj.core.groups.Tuple.tuple("B", "scan-b", false));
        }
        try (JobState restart = JobState.open(root, "k1", "backup", "2 tables", true)) {
            assertThat(restart.resumable()).isFalse();
            assertThat(restart.recorded("set")).as("--restart: a new set").isNull();
            assertThat(restart.stageSpec("A")).isEmpty();
        }
    }

    @Test
    void aJobKilledBeforeItsFirstStageWasSeededStartsOverWithNothingKept(@TempDir Path root) {
        try (JobState state = JobState.open(root, "k2", "backup", "1 table", false)) {
            state.record("set", "set-1");
            state.stageStarting("A", spec("scan-a"));
        }
        try (JobState rerun = JobState.open(root, "k2", "backup", "1 table", false)) {
            assertThat(rerun.resumable()).isFalse();
            assertThat(rerun.recorded("set")).isNull();
        }
    }
}
