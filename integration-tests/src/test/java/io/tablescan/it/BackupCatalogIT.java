package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.local.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog commands name a mistyped place: a container that does not exist is one line and exit 4, and so is a
 * prefix that holds no set while a prefix of a close name does (list, prune, restore --latest); an incremental
 * backup that finds no set to build on says so on stderr. A backup refused before it starts leaves no folder.
 */
class BackupCatalogIT {
    private static final Map<String, String> ENV = Map.of("TABLESCAN_ACCOUNT_CATBLOB_CONNECTION_STRING",
            AzuriteBlob.shared().connectionString());

    @Test
    void aContainerThatDoesNotExistIsNamedNotListedAsEmpty() {
        Cli.assertOneLine(Cli.run(ENV, "backups", "list", "--from-container", "nosuchbackups", "--from-account",
                "catblob"), 4, "--from-container: no container nosuchbackups in account catblob");
        Cli.assertOneLine(Cli.run(ENV, "backups", "prune", "--from-container", "nosuchbackups", "--from-account",
                "catblob", "--keep-last", "3"), 4, "--from-container: no container nosuchbackups");
    }

    @Test
    void aMistypedPrefixNamesThePrefixThatHoldsSetsInsteadOfListingNone() {
        SampleTable.write(LocalServices.store(), "catsource", SampleTable.rows(40), 4);
        String source = LocalServices.azurite().connectionString();
        Cli.Run full = Cli.run(ENV, "backup", "--source-connection-string", source, "--tables", "catsource",
                "--to-container", "catsets", "--to-prefix", "nightly", "--to-account", "catblob");
        assertThat(full.exitCode()).as(full.out() + full.err()).isZero();

        String near = "container catsets under nightly/ holds 1 set";
        Cli.assertOneLine(Cli.run(ENV, "backups", "list", "--from-container", "catsets", "--from-prefix", "nighty",
                "--from-account", "catblob"), 4, "no backup set in container catsets under nighty/; " + near
                + ": give that place");
        Cli.assertOneLine(Cli.run(ENV, "backups", "prune", "--from-container", "catsets", "--from-prefix", "Nightly",
                "--from-account", "catblob", "--keep-last", "1"), 4, "no backup set in container catsets under "
                + "Nightly/; " + near);
        Cli.assertOneLine(Cli.run(ENV, "backups", "list", "--from-container", "catsets", "--from-account", "catblob"),
                4, "no backup set in container catsets (it holds 1 other file or folder); " + near);
        Cli.assertOneLine(Cli.run(ENV, "restore", "--from-container", "catsets", "--from-prefix", "nighty",
                "--from-account", "catblob", "--latest", "--dest-connection-string", source), 4,
                "no complete backup set in container catsets under nighty/ (" + near + ": a mistyped place?)");

        Cli.Run incremental = Cli.run(ENV, "backup", "--source-connection-string", source, "--tables", "catsource",
                "--to-container", "catsets", "--to-prefix", "nightly-2", "--to-account", "catblob", "--incremental");
        assertThat(incremental.exitCode()).as(incremental.out() + incremental.err()).isZero();
        assertThat(incremental.err()).contains("warning: --incremental: no complete backup set in container catsets "
                + "under nightly-2/ to build on, so this set is a full one (" + near + ": a mistyped place?)");
        assertThat(incremental.out()).contains("(full)");
    }

    @Test
    void aBackupThroughAKafkaThatDoesNotAnswerLeavesNoFolder(@TempDir Path dir) throws Exception {
        SampleTable.write(LocalServices.store(), "catkafka", SampleTable.rows(10), 2);
        Path target = dir.resolve("sets");
        try (ChildProcesses children = new ChildProcesses("backup-kafka")) {
            Files.deleteIfExists(children.log("backup").toPath());
            Process backup = children.start("backup", Map.of("TABLESCAN_KAFKA_WAIT", "1s"), "backup",
                    "--source-connection-string", LocalServices.azurite().connectionString(), "--tables", "catkafka",
                    "--to", target.toString(), "--kafka", "127.0.0.1:" + FreePorts.find());
            assertThat(backup.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(backup.exitValue()).as(children.output("backup")).isEqualTo(3);
            assertThat(children.output("backup")).contains("tablescan: cannot reach Kafka at 127.0.0.1:");
        }
        assertThat(target).as("the target folder of a backup that never started").doesNotExist();
    }
}
