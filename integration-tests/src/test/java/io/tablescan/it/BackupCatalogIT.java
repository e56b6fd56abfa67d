package io.tablescan.it;

import io.tablescan.cli.Cli;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The catalog commands name a mistyped place: a container that does not exist is one line and exit 4. */
class BackupCatalogIT {
    @Test
    void aContainerThatDoesNotExistIsNamedNotListedAsEmpty() {
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_CATBLOB_CONNECTION_STRING",
                AzuriteBlob.shared().connectionString());
        Cli.assertOneLine(Cli.run(env, "backups", "list", "--from-container", "nosuchbackups", "--from-account",
                "catblob"), 4, "--from-container: no container nosuchbackups in account catblob");
        Cli.assertOneLine(Cli.run(env, "backups", "prune", "--from-container", "nosuchbackups", "--from-account",
                "catblob", "--keep-last", "3"), 4, "--from-container: no container nosuchbackups");
    }
}
