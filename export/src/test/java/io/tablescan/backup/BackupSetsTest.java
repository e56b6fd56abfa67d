package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog of backup sets in a folder: listing, chains, and retention that keeps the bases of kept sets. */
class BackupSetsTest {
    private static final Instant NOW = Instant.parse("2026-11-27T00:00:00Z");

    @TempDir
    Path folder;

    @Test
    void retentionKeepsTheNewestAndEveryBaseTheyBuildOn() {
        BackupSets sets = new BackupSets(new FolderStore(folder));
        set(sets, "20261120T000000Z-0001", null, 7, true);
        set(sets, "20261121T000000Z-0002", "20261120T000000Z-0001", 6, true);
        set(sets, "20261122T000000Z-0003", null, 5, true);
        set(sets, "20261123T000000Z-0004", "20261122T000000Z-0003", 4, false); // failed: never kept by count
        set(sets, "20261124T000000Z-0005", "20261122T000000Z-0003", 3, true);
        set(sets, "20261125T000000Z-0006", "20261124T000000Z-0005", 2, true);

        assertThat(sets.expired(1, null, NOW)).as("the newest builds on 0005, which builds on 0003")
                .containsExactly("20261120T000000Z-0001", "20261121T000000Z-0002", "20261123T000000Z-0004");
        assertThat(sets.expired(null, 6, NOW)).as("0002 is within 6 days and builds on 0001")
                .containsExactly("20261123T000000Z-0004");
        assertThat(sets.expired(null, 0, NOW)).as("the newest complete set and its bases are always kept")
                .containsExactly("20261120T000000Z-0001", "20261121T000000Z-0002", "20261123T000000Z-0004");
        assertThat(sets.chain("20261125T000000Z-0006")).extracting(SetIndex::id).containsExactly(
                "20261122T000000Z-0003", "20261124T000000Z-0005", "20261125T000000Z-0006");
        assertThatThrownBy(() -> sets.chain("20261123T000000Z-0004")).hasMessageContaining("not complete");

        sets.delete("20261120T000000Z-0001");
        assertThat(Files.exists(folder.resolve("20261120T000000Z-0001"))).isFalse();
        assertThat(sets.list()).hasSize(5);
    }

    @Test
    void aSetFolderWithoutAnIndexIsListedUnfinishedAndKeptWhenNewerThanTheKeptSets() {
        BackupSets sets = new BackupSets(new FolderStore(folder));
        set(sets, "20261120T000000Z-0001", null, 7, true);
        for (String unfinished : List.of("20261121T000000Z-0002", "20261119T000000Z-0000")) {
            sets.table(unfinished, "T").prepare();
            sets.table(unfinished, "T").write("manifest.json", new byte[] {1});
        }

        new FolderStore(folder.resolve("2019-export")).prepare(); // not a set: never listed, never pruned
        new FolderStore(folder.resolve("2019-export")).write("manifest.json", new byte[] {1});
        assertThat(sets.list()).extracting(BackupSets.Listed::complete).containsExactly(false, true, false);
        assertThat(sets.expired(1, null, NOW)).containsExactly("20261119T000000Z-0000");
        assertThatThrownBy(() -> sets.read("20261121T000000Z-0002")).isInstanceOf(BackupException.class)
                .hasMessageContaining("never finished");
    }

    @Test
    void retentionNeverDeletesTheLastCompleteSetNorARunningFirstBackup() {
        BackupSets sets = new BackupSets(new FolderStore(folder));
        sets.table("20261126T020000Z-0002", "T").prepare(); // the first backup, running: no index yet
        assertThat(sets.expired(14, 30, NOW)).as("nothing is kept, so nothing is older than a kept set").isEmpty();

        set(sets, "20261001T020000Z-0001", null, 57, true); // the nightly job stopped after this one
        assertThat(sets.expired(null, 30, NOW)).isEmpty();
        set(sets, "20261002T020000Z-0003", null, 56, false);
        assertThat(sets.expired(null, 30, NOW)).containsExactly("20261002T020000Z-0003");
    }

    @Test
    void atTheStartTimeThatListShowsSelectsThatSet() {
        BackupSets sets = new BackupSets(new FolderStore(folder));
        set(sets, "20261120T000000Z-0001", null, NOW.minusSeconds(60).plusMillis(250), true);
        set(sets, "20261120T000100Z-0002", "20261120T000000Z-0001", NOW.plusMillis(437), true);

        assertThat(sets.latest(NOW).id()).as("listed as started at %s", NOW).isEqualTo("20261120T000100Z-0002");
        assertThat(sets.latest(NOW.minusMillis(1)).id()).isEqualTo("20261120T000000Z-0001");
    }

    @Test
    void aDamagedIndexIsNamedAndLeftOutAndNeverPrunedWhileTheOtherSetsStayUsable() {
        BackupSets sets = new BackupSets(new FolderStore(folder));
        set(sets, "20261120T000000Z-0001", null, 7, true);
        set(sets, "20261121T000000Z-0002", "20261120T000000Z-0001", 6, true);
        set(sets, "20261122T000000Z-0003", null, 5, true);
        set(sets, "20261123T000000Z-0004", null, 4, true);
        sets.set("20261123T000000Z-0004").write(SetIndex.NAME, "{\"formatVersion\": 1, \"id\": ".getBytes()); // cut
        sets.set("20261120T000000Z-0001").write(SetIndex.NAME, new byte[0]);

        List<BackupSets.Listed> listed = sets.list();
        assertThat(listed).extracting(BackupSets.Listed::damaged).containsExactly(true, false, false, true);
        assertThat(listed.get(3).damage()).contains("20261123T000000Z-0004").contains("set.json")
                .contains("not a backup set's index");
        assertThat(listed.get(3).started()).isEqualTo("2026-11-23T00:00:00Z");
        assertThat(sets.latest(null).id()).as("the newest set that can be read").isEqualTo("20261122T000000Z-0003");
        assertThat(sets.expired(1, null, NOW)).as("a damaged set may be a kept set's base, or the newest")
                .containsExactly("20261121T000000Z-0002");
        assertThatThrownBy(() -> sets.chain("20261121T000000Z-0002")).isInstanceOf(BackupException.class)
                .hasMessageContaining("20261120T000000Z-0001");
    }

    @Test
    void anUnfinishedSetStartedWhenItsIdSays() {
        BackupSets sets = new BackupSets(new FolderStore(folder));
        sets.table("20261121T023005Z-00af", "T").prepare();
        assertThat(sets.list().getFirst().started()).isEqualTo("2026-11-21T02:30:05Z");
    }

    @Test
    void aPlaceWithNoSetNamesWhatItHoldsAndTheSetsNearby() {
        BackupSets nightly = new BackupSets(new FolderStore(folder.resolve("backups").resolve("nightly")));
        set(nightly, "20261120T000000Z-0001", null, 7, true);
        set(nightly, "20261121T000000Z-0002", null, 6, true);

        BackupSets mistyped = new BackupSets(new FolderStore(folder.resolve("backups").resolve("nighty")));
        new FolderStore(folder.resolve("backups").resolve("nighty")).prepare();
        assertThat(mistyped.list()).isEmpty();
        assertThat(mistyped.elsewhere()).isEqualTo(new BackupSets.Elsewhere(0,
                folder.resolve("backups").resolve("nightly").toString(), 2));

        BackupSets parent = new BackupSets(new FolderStore(folder.resolve("backups")));
        assertThat(parent.elsewhere()).as("a sub-folder that holds sets").isEqualTo(new BackupSets.Elsewhere(2,
                folder.resolve("backups").resolve("nightly").toString(), 2));

        BackupSets other = new BackupSets(new FolderStore(folder.resolve("exports")));
        new FolderStore(folder.resolve("exports")).prepare();
        new FolderStore(folder.resolve("exports")).write("manifest.json", new byte[] {1});
        assertThat(other.elsewhere()).isEqualTo(new BackupSets.Elsewhere(1, null, 0));

        assertThat(BackupSets.close("nightly", "Nightly")).isTrue();
        assertThat(BackupSets.close("nightly", "nighty")).isTrue();
        assertThat(BackupSets.close("nightly", "weekly")).isFalse();
    }

    private static void set(BackupSets sets, String id, String base, int daysAgo, boolean complete) {
        set(sets, id, base, NOW.minusSeconds(daysAgo * 86_400L), complete);
    }

    private static void set(BackupSets sets, String id, String base, Instant start, boolean complete) {
        SetIndex.Table table = new SetIndex.Table("T", complete ? 1L : null, complete ? 10L : null, 1, null,
                base == null ? null : 1L, base == null ? null : "2026-01-01T00:00:00Z", complete ? null : "failed");
        SetIndex index = new SetIndex(SetIndex.FORMAT_VERSION, id, base == null ? SetIndex.FULL : SetIndex.INCREMENTAL,
                base, start.toString(), NOW.toString(), "acct", "test", complete,
                List.of(table));
        sets.set(id).prepare();
        sets.set(id).write(SetIndex.NAME, index.toJson());
    }
}
