package io.tablescan.cli;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * export's and import's places: exactly one folder or container, a container with exactly one account; each
 * mistake one line and exit 2 before anything is read (the connection string points nowhere), no key repeated.
 */
class BackupOptionsTest {
    static final String CS = TargetOptionsTest.CS;
    static final String[] EXPORT = {"export", "--source-connection-string", CS, "--source-table", "src"};
    static final String[] IMPORT = {"import", "--dest-connection-string", CS, "--dest-table", "dst"};

    @Test
    void exportNeedsOnePlace() {
        Cli.assertOneLine(Cli.run(EXPORT), UserError.USAGE, "give one of --to DIR and --to-container NAME");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(EXPORT, "--to", "x", "--to-container", "abc")),
                UserError.USAGE, "give one of --to DIR and --to-container NAME");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(EXPORT, "--to", "x", "--to-prefix", "p")), UserError.USAGE,
                "go with --to-container, not --to");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(EXPORT, "--to-container", "Not_A_Container",
                "--to-connection-string", CS)), UserError.USAGE, "--to-container must be a container name");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(EXPORT, "--to-container", "abc")), UserError.USAGE,
                "give one of --to-connection-string and --to-account with --to-container");
    }

    @Test
    void aBackupOfNoTableIsRefusedBeforeAnythingIsRead() {
        Cli.assertOneLine(Cli.run("backup", "--source-connection-string", CS, "--tables", ",", "--to", "x"),
                UserError.USAGE, "--tables names no table");
    }

    @Test
    void anAliasWithoutBlobSettingsNamesTheVariables() {
        Cli.assertOneLine(Cli.run(Map.of(), TargetOptionsTest.with(EXPORT, "--to-container", "abc", "--to-account",
                "bk")), UserError.USAGE, "set TABLESCAN_ACCOUNT_BK_CONNECTION_STRING, or TABLESCAN_ACCOUNT_BK_BLOB_ENDPOINT");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(EXPORT, "--to-container", "abc", "--to-account", "a b")),
                UserError.USAGE, "is not a valid account alias");
    }

    @Test
    void importNeedsOnePlace() {
        Cli.assertOneLine(Cli.run(IMPORT), UserError.USAGE, "give one of --from DIR and --from-container NAME");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(IMPORT, "--from", "x", "--kafka", "no port")), UserError.USAGE,
                "--kafka");
        Cli.assertOneLine(Cli.run(TargetOptionsTest.with(IMPORT, "--from-container", "abc",
                "--from-connection-string", "nonsense")), UserError.USAGE, "the Blob connection string is not valid");
    }
}
