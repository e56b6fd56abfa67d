package io.tablescan.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A killed process's broker directory is deleted by the next broker; a running one's, or a foreign one, stays. */
class ScratchDirectoriesTest {
    @TempDir
    Path parent;

    @Test
    void theDirectoriesOfProcessesThatEndedAreDeletedAndNoOtherOnes() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path leftover = withData(parent.resolve("tablescan-kafka-" + ended.pid() + "-123"));
        Path running = withData(parent.resolve("tablescan-kafka-" + ProcessHandle.current().pid() + "-456"));
        Path unnamed = withData(parent.resolve("tablescan-kafka-789")); // an older name, without its process
        Path other = withData(parent.resolve("other-" + ended.pid() + "-1"));

        ScratchDirectories.reapLeftovers(parent);

        assertThat(leftover).doesNotExist();
        assertThat(running).exists();
        assertThat(unnamed).exists();
        assertThat(other).exists();
    }

    @Test
    void aNewDirectoryIsNamedAfterThisProcess() throws IOException {
        Path dir = ScratchDirectories.create();
        try {
            assertThat(dir.getFileName().toString()).startsWith("tablescan-kafka-" + ProcessHandle.current().pid() + "-");
        } finally {
            ScratchDirectories.delete(dir);
        }
    }

    private static Path withData(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("topic-0"));
        Files.writeString(dir.resolve("topic-0/00000000000000000000.log"), "x");
        return dir;
    }
}
