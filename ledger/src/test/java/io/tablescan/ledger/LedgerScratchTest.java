package io.tablescan.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A SIGKILLed run's ledger folder does not stay in the temporary folder for ever; a running process's stays. */
class LedgerScratchTest {
    @TempDir
    Path tmp;

    @Test
    void theFolderOfAProcessThatIsGoneIsDeletedAndOneOfARunningProcessIsKept() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Path killed = Files.createDirectories(tmp.resolve(LedgerScratch.PREFIX + gone.pid() + "-123/tablescan-ledger"));
        Path running = Files.createDirectories(tmp.resolve(LedgerScratch.PREFIX + ProcessHandle.current().pid() + "-456"));
        Path other = Files.createDirectories(tmp.resolve("tablescan-kafka-1-2"));

        LedgerScratch.reapLeftovers(tmp);

        assertThat(killed.getParent()).doesNotExist();
        assertThat(running).exists();
        assertThat(other).exists();
    }

    @Test
    void aLedgersFolderIsNamedWithItsProcess() throws Exception {
        Path dir = LedgerScratch.create();
        try {
            assertThat(dir.getFileName().toString()).startsWith(LedgerScratch.PREFIX + ProcessHandle.current().pid() + "-");
        } finally {
            LedgerScratch.delete(dir);
        }
    }
}
