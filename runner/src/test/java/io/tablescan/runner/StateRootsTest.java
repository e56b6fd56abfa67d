package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a local job keeps its state when the default cannot be written (a container's user with no home, a
 * read-only home): a folder of the user's in the temp directory with one warning line naming the way out; a folder
 * the user named is refused with its reason and the way out, never replaced.
 */
class StateRootsTest {
    @Test
    void noHomeFallsBackToTheTempDirectoryWithAWarningThatNamesTheWayOut(@TempDir Path tmp) throws Exception {
        StateRoots.Choice choice = StateRoots.choose(null, Map.of(), "?", "tablescan", tmp);

        assertThat(choice.dir()).isEqualTo(tmp.resolve("tablescan-tablescan").resolve("jobs"));
        assertThat(choice.warning()).startsWith("warning: cannot use the state folder ~/.tablescan/jobs (this user has "
                + "no home folder)").contains("--state-dir DIR", "TABLESCAN_STATE_DIR", choice.dir().toString());
        JobState.open(choice.dir(), "00cc", "copy", "A -> B", false).close(); // a job runs there
    }

    @Test
    void aHomeThatCannotBeWrittenFallsBackAndSaysWhy(@TempDir Path tmp) throws Exception {
        Path home = Files.writeString(tmp.resolve("home"), "a file where the home folder should be");

        StateRoots.Choice choice = StateRoots.choose(null, Map.of(), home.toString(), "u", tmp);
        assertThat(choice.dir()).isEqualTo(tmp.resolve("tablescan-u").resolve("jobs"));
        assertThat(choice.warning()).contains("cannot use the state folder " + home.resolve(".tablescan/jobs"))
                .contains("not a folder");

        StateRoots.Choice fromEnv = StateRoots.choose(null, Map.of(JobState.ENV, home.resolve("jobs").toString()),
                tmp.toString(), "u", tmp);
        assertThat(fromEnv.warning()).contains(home.resolve("jobs").toString()).contains("not a folder");
    }

    @Test
    void aFallbackFolderOthersMayWriteIsNeverUsed(@TempDir Path tmp) throws Exception {
        Path taken = Files.createDirectories(tmp.resolve("tablescan-u").resolve("jobs"));
        Files.setPosixFilePermissions(taken.getParent(),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx")); // made so by another user

        StateRoots.Choice choice = StateRoots.choose(null, Map.of(), "?", "u", tmp);

        assertThat(choice.dir().startsWith(taken.getParent())).as(choice.dir().toString()).isFalse();
        assertThat(choice.dir().startsWith(tmp)).isTrue();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(choice.dir())))
                .isEqualTo("rwx------");
        assertThat(choice.warning()).contains("this job's state is kept in " + choice.dir());
    }

    /** Listing the jobs creates no folder: neither the default nor one in the temp directory. */
    @Test
    void aListingCreatesNoFolder(@TempDir Path tmp) throws Exception {
        String me = System.getProperty("user.name");
        Path home = tmp.resolve("me");

        assertThat(StateRoots.forReading(null, Map.of(), home.toString(), me, tmp, Files::isWritable))
                .isEqualTo(home.resolve(".tablescan").resolve("jobs"));
        assertThat(StateRoots.forReading(null, Map.of(), "?", me, tmp, Files::isWritable)).isEqualTo(tmp.resolve("tablescan-" + me)
                .resolve("jobs"));
        try (var made = Files.list(tmp)) {
            assertThat(made).as("nothing created").isEmpty();
        }

        Path fallback = StateRoots.choose(null, Map.of(), "?", me, tmp).dir(); // a job of a homeless run went there
        assertThat(StateRoots.forReading(null, Map.of(), home.toString(), me, tmp, Files::isWritable)).isEqualTo(fallback);
        Path made = Files.createDirectories(home.resolve(".tablescan").resolve("jobs"));
        // there but read-only (a read-only home): jobs fell back to the temp directory, and are listed there
        assertThat(StateRoots.forReading(null, Map.of(), home.toString(), me, tmp, dir -> !dir.equals(made)))
                .isEqualTo(fallback);
        // the default, once there and writable, comes first
        assertThat(StateRoots.forReading(null, Map.of(), home.toString(), me, tmp, Files::isWritable))
                .isEqualTo(made);
    }

    @Test
    void aWritableDefaultIsUsedWithoutAWord(@TempDir Path tmp) {
        StateRoots.Choice choice = StateRoots.choose(null, Map.of(), tmp.resolve("me").toString(), "u", tmp);
        assertThat(choice.dir()).isEqualTo(tmp.resolve("me").resolve(".tablescan").resolve("jobs"));
        assertThat(choice.warning()).isNull();
    }

    @Test
    void aStateDirTheUserNamedIsRefusedWithItsReasonAndTheWayOut(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("state"), "not a folder");
        StateRoots.Choice choice = StateRoots.choose(file, Map.of(), tmp.toString(), "u", tmp);
        assertThat(choice.dir()).isEqualTo(file);

        assertThatThrownBy(() -> JobState.open(choice.dir(), "00dd", "copy", "A -> B", false))
                .isInstanceOf(RunSettingsException.class)
                .hasMessage("cannot use the state folder " + file + " (" + file + " is a file, not a folder): give "
                        + "--state-dir DIR or set TABLESCAN_STATE_DIR to a folder you can write");
    }
}
