package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ScanEventBuilder;
import io.tablescan.schema.JobRef;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanFold;
import io.tablescan.status.ScanTotals;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalJobRunTest {
    /** A copy that read all 100,000 rows and wrote 37,000 of them. */
    static ScanTotals copyHalfWritten() {
        ScanSpec spec = ScanSpec.newBuilder().setScanId("s1").setSource(new TableRef("a", "Source"))
                .setDestination(new TableRef("a", "Dest")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1_000)
                .build();
        ScanStatus s = ScanFold.apply(null, new ScanEventBuilder("s1").started(spec).emitted(ItemKind.PREFIX_QUERY).build());
        s = ScanFold.apply(s, new ScanEventBuilder("s1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 100_000, 0, 100)).emitted(ItemKind.ENTITY_BATCH).build());
        s = ScanFold.apply(s, new ScanEventBuilder("s1").done(ItemKind.ENTITY_BATCH, 1,
                new ItemHandler.Result(List.of(), 0, 37_000, 7_400)).build());
        return new ScanTotals("s1", s);
    }

    /** A delete that read 29,358 rows and whose delete requests answered for 3,109 (3,100 deleted, 9 changed). */
    static ScanTotals deleteKilledEarly(boolean dryRun) {
        ScanSpec spec = ScanSpec.newBuilder().setScanId("d1").setSource(new TableRef("a", "Source")).setPageSize(1000)
                .setPageBudget(5).setCreatedAtMillis(1_000).setJob(new JobRef("delete", dryRun
                        ? Map.of("dry-run", "true", "all", "true") : Map.of("all", "true"))).build();
        ScanStatus s = ScanFold.apply(null, new ScanEventBuilder("d1").started(spec).emitted(ItemKind.PREFIX_QUERY).build());
        s = ScanFold.apply(s, new ScanEventBuilder("d1").done(ItemKind.PREFIX_QUERY, 0,
                new ItemHandler.Result(List.of(), 29_358, 0, 30)).emitted(ItemKind.ENTITY_BATCH).build());
        s = ScanFold.apply(s, new ScanEventBuilder("d1").done(ItemKind.ENTITY_BATCH, 1, new ItemHandler.Result(
                List.of(), 0, 0, 32, 0, Map.of(Counters.DELETED, 3_100L, Counters.SKIPPED, 9L))).build());
        return new ScanTotals("d1", s);
    }

    @Test
    void aDeleteRecordsTheRowsItsDeleteRequestsAnsweredNotTheRowsItRead(@TempDir Path root) {
        try (JobState state = JobState.open(root, "d", "delete", "Source", false)) {
            LocalJobRun.recording(state, totals -> {}).accept(deleteKilledEarly(false));

            assertThat(state.rows()).as("`jobs` and the rerun's `N rows already done`").isEqualTo(3_109);
        }
        assertThat(deleteKilledEarly(false).rowsCopied()).as("the progress line's rows").isEqualTo(3_109);
        assertThat(deleteKilledEarly(true).rowsCopied()).as("a dry run deletes nothing: it is done reading")
                .isEqualTo(29_358);
    }

    @Test
    void aMirrorAndAChangedOnlyCopyCountTheRowsTheyComparedNotOnlyTheFewTheyWrote() {
        for (String flag : List.of("mirror", "changed-only")) {
            ScanTotals t = copyHalfWritten();
            ScanSpec spec = t.spec();
            if (flag.equals("mirror")) {
                spec.setMirror(true);
            } else {
                spec.setChangedOnly(true);
            }
            assertThat(new ScanTotals("s1", ScanFold.apply(t.status(), new ScanEventBuilder("s1").build())).rowsCopied())
                    .as(flag).isEqualTo(100_000);
        }
    }

    @Test
    void aJobRecordsTheRowsItsProgressCountsAsDoneNotTheRowsItRead(@TempDir Path root) {
        List<Long> shown = new ArrayList<>();
        try (JobState state = JobState.open(root, "k", "copy", "Source -> Dest", false)) {
            LocalJobRun.recording(state, totals -> shown.add(totals.rowsCopied())).accept(copyHalfWritten());

            assertThat(shown).containsExactly(37_000L);
            assertThat(state.rows()).isEqualTo(37_000); // not the 100,000 read: `jobs` and a rerun say 37,000 done
            assertThat(JobState.read(root.resolve("k")).getProperty("rows")).isEqualTo("37000");
        }
    }

    /** A run killed after recording its scan and before seeding it: `jobs` says a rerun starts over, and the rerun says so. */
    @Test
    void aJobKilledBeforeItsScanWasSeededIsSaidToStartOver(@TempDir Path root) throws Exception {
        Path dir = java.nio.file.Files.createDirectories(root.resolve("k"));
        java.util.Properties left = new java.util.Properties();
        left.setProperty("key", "k");
        left.setProperty("job", "copy");
        left.setProperty("tables", "Source -> Dest");
        left.setProperty("scan", "scan-20261206-120000-abcd");
        left.setProperty("started", "2026-12-06T12:00:00Z");
        try (var out = java.nio.file.Files.newOutputStream(dir.resolve(JobState.FILE))) {
            left.store(out, null);
        }

        assertThat(JobStates.list(root)).singleElement().satisfies(entry -> assertThat(entry.seeded()).isFalse());
        try (JobState state = JobState.open(root, "k", "copy", "Source -> Dest", false)) {
            assertThat(state.resumable()).isFalse();
            assertThat(state.startedOver()).contains("an earlier run of this job (scan scan-20261206-120000-abcd, "
                    + "started 2026-12-06T12:00:00Z) stopped before its scan was seeded: nothing of it was done; this "
                    + "run starts the job over");
        }
        try (JobState fresh = JobState.open(root, "k", "copy", "Source -> Dest", false)) {
            assertThat(fresh.startedOver()).isEmpty(); // the run above left nothing behind
        }
    }
}
