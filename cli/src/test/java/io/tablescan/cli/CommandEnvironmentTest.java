package io.tablescan.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that runs a table job with --kafka reads TABLESCAN_NAMESPACE (and the other KAFKA_* settings) from
 * the environment it is given, as copy does: the namespace a test or an embedding program gives is the one the job
 * runs under, never silently the process's. A namespace Kafka cannot use is refused before anything connects.
 */
class CommandEnvironmentTest {
    private static final String CS = TargetOptionsTest.CS;
    private static final Map<String, String> BAD_NAMESPACE = Map.of("TABLESCAN_NAMESPACE", "team b");

    @TempDir
    Path folder;

    @Test
    void everyTableJobReadsTheNamespaceFromItsEnvironment() {
        String kafka = "127.0.0.1:1"; // nothing listens: the namespace is checked before anything connects
        String dir = folder.toString();
        List<String[]> commands = List.of(
                new String[] {"copy", "--source-connection-string", CS, "--source-table", "src", "--dest-table", "dst"},
                new String[] {"count", "--source-connection-string", CS, "--source-table", "src"},
                new String[] {"delete", "--source-connection-string", CS, "--source-table", "src", "--all", "--yes"},
                new String[] {"verify", "--source-connection-string", CS, "--source-table", "src", "--dest-table", "dst"},
                new String[] {"export", "--source-connection-string", CS, "--source-table", "src", "--to", dir},
                new String[] {"import", "--from", dir, "--dest-connection-string", CS, "--dest-table", "dst"},
                new String[] {"backup", "--source-connection-string", CS, "--tables", "src", "--to", dir},
                new String[] {"restore", "--from", dir, "--latest", "--dest-connection-string", CS});
        for (String[] command : commands) {
            Cli.assertOneLine(Cli.run(BAD_NAMESPACE, TargetOptionsTest.with(command, "--kafka", kafka)), UserError.USAGE,
                    "TABLESCAN_NAMESPACE must be 1 to 200 characters");
        }
    }
}
