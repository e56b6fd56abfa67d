package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The ./tablescan launcher says nothing of its class cache among a command's output unless TABLESCAN_DEBUG asks. */
class LauncherLinesTest {
    @Test
    void theClassCacheIsMentionedOnlyThroughDebug() throws Exception {
        Path launcher = Path.of("..", "tablescan");
        assertThat(launcher).exists();
        assertThat(Files.readAllLines(launcher)).filteredOn(line -> line.contains("class cache"))
                .filteredOn(line -> line.matches("\\s*(echo|printf)\\b.*")) // a line printed, not a comment
                .as("lines of the launcher that print about the class cache without TABLESCAN_DEBUG").isEmpty();
        assertThat(Files.readString(launcher)).contains("debug() { if [ -n \"${TABLESCAN_DEBUG:-}\" ]; then echo");
        // The JVM's own line when a run that records the class cache exits ("AOTConfiguration recorded: ...").
        assertThat(Files.readString(launcher)).contains("[ -n \"${TABLESCAN_DEBUG:-}\" ] || FAST_START+=("
                + "-XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput)");
    }
}
