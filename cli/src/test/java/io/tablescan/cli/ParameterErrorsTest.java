package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A mistyped command line gets one line that repeats no value typed: the secrets below must never show,
 * whichever picocli error the mistake causes. Only plain names (a command, an option) are echoed.
 */
class ParameterErrorsTest {
    private static final String KEY = "c2VjcmV0LWtleS1ub2JvZHktbXVzdC1zZWUtdGhpcy1pbi1hbnktbWVzc2FnZQ==";
    private static final String CS = "DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=" + KEY
            + ";EndpointSuffix=core.windows.net";
    private static final String SAS = "sv=2019-02-02&ss=t&srt=sco&sp=rl&se=2030-01-01&sig=c2lnbmF0dXJlLXNlY3JldA%3D%3D";

    @Test
    void aMistypedCommandNamesItAndSuggestsTheNearestButNeverRepeatsTheKey() {
        Cli.Run run = Cli.run("xyzzy", "--source-connection-string", CS); // no command is near it
        assertSecretFree(run, "unknown command 'xyzzy' (commands: demo, copy, count, start");

        assertSecretFree(Cli.run("cpy", "--source-connection-string", CS), "unknown command 'cpy' (did you mean 'copy'?); see tablescan --help");
        assertSecretFree(Cli.run("stauts"), "unknown command 'stauts' (did you mean 'status'?)");
        assertThat(Cli.run("cpy").err()).doesNotContain("tablescan tablescan");
        // A secret pasted where the command goes is not repeated either.
        assertSecretFree(Cli.run(CS), "unknown command (not shown");
        assertSecretFree(Cli.run(CS, "copy"), "missing --source-table;");
        assertSecretFree(Cli.run(), "a command is needed (demo, copy,");
    }

    @Test
    void unknownOptionsAndTheirValuesAreNotRepeated() {
        assertSecretFree(Cli.run("copy", "--source-conection-string", CS, "--source-table", "abc", "--dest-table", "def"),
                "unknown option '--source-conection-string' (did you mean '--source-connection-string'?)");
        assertSecretFree(Cli.run("copy", "--source-conection-string=" + CS, "--source-table", "abc", "--dest-table", "def"),
                "unknown option '--source-conection-string' (did you mean '--source-connection-string'?)");
        assertSecretFree(Cli.run("copy", "--sas=" + SAS, "--source-table", "abc", "--dest-table", "def"),
                "unknown option '--sas'");
        assertSecretFree(Cli.run("copy", "-" + KEY, "--source-table", "abc", "--dest-table", "def"), "unknown option (not shown");
        assertSecretFree(Cli.run("copy", "--source-table", "abc", "--dest-table", "def", CS), "unexpected argument (not shown)");
        assertSecretFree(Cli.run("status", "scan-1", CS, SAS), "2 unexpected arguments (not shown)");
        // A mistyped required option is named, not reported as the required one missing.
        assertSecretFree(Cli.run("copy", "--source-connection-string", CS, "--source-tabel", "abc", "--dest-table",
                "def"), "unknown option '--source-tabel' (did you mean '--source-table'?)");
    }

    @Test
    void badValuesAreNamedByTheirOptionNotRepeated() {
        assertSecretFree(Cli.run("copy", "--page-size", CS, "--source-table", "abc", "--dest-table", "def"),
                "invalid value for --page-size (a whole number)");
        assertSecretFree(Cli.run("copy", "--strategy", CS, "--source-table", "abc", "--dest-table", "def"),
                "invalid value for --strategy (one of PREFIX, SERIAL)");
        assertSecretFree(Cli.run("worker", SAS), "invalid value for KIND (one of discovery, partition, copy)");
        assertSecretFree(Cli.run("copy", "--source-connection-string", CS, "--source-connection-string", CS,
                "--source-table", "abc", "--dest-table", "def"), "--source-connection-string was given more than once");
        assertSecretFree(Cli.run("copy", "--source-connection-string", CS, "--source-table"), "--source-table needs a value");
        assertSecretFree(Cli.run("copy", "--source-connection-string", CS, "--source-table", "--dest-table", "def"),
                "--source-table needs a value");
        assertSecretFree(Cli.run("copy", "--source-connection-string", CS), "missing --source-table;");
        assertSecretFree(Cli.run("restore", "--from", "/nowhere", "--latest", "--set", KEY, "--dest-connection-string",
                CS), "give only one of --set, --latest and --at; see tablescan restore --help");
        assertSecretFree(Cli.run("failures"), "missing SCAN_ID");
    }

    @Test
    void valuesTheCommandsCheckThemselvesAreNotRepeatedEither() {
        assertSecretFree(Cli.run("copy", "--source-connection-string", CS, "--source-table", KEY, "--dest-table", "def"),
                "--source-table: the value is not a valid table name");
        assertSecretFree(Cli.run("start", "--kafka", CS, "--source-account", "a", "--source-table", "abc",
                "--dest-account", "b", "--dest-table", "def"), "must be HOST:PORT");
        assertSecretFree(Cli.run("start", "--kafka", "127.0.0.1:1", "--source-account", SAS, "--source-table", "abc",
                "--dest-account", "b", "--dest-table", "def"), "--source-account: is not a valid account alias");
    }

    @Test
    void startOfAnImportTakesOnlyAnImportsOptionsAndNoConnectionString() {
        assertSecretFree(Cli.run("start", "--from-container", "c", "--from-connection-string", CS, "--dest-account",
                "b", "--dest-table", "def"), "start takes no --from-connection-string");
        Cli.assertOneLine(Cli.run("start", "--from", "/tmp/x", "--source-table", "abc", "--dest-account", "b",
                "--dest-table", "def"), UserError.USAGE, "--source-table does not go with --from or --from-container");
        Cli.assertOneLine(Cli.run("start", "--from", "/tmp/x", "--dest-table", "def"), UserError.USAGE,
                "an import needs --dest-table TABLE and --dest-account ALIAS");
        Cli.assertOneLine(Cli.run("start", "--dest-account", "b", "--dest-table", "def"), UserError.USAGE,
                "start needs --source-account ALIAS and --source-table TABLE");
    }

    @Test
    void aFolderToReadFromThatIsNotThereIsNamedSo() {
        Cli.assertOneLine(Cli.run("import", "--from", "/nonexistent-tablescan", "--dest-account", "b", "--dest-table",
                "def"), UserError.NOT_FOUND, "--from: no folder /nonexistent-tablescan");
        Cli.assertOneLine(Cli.run("backups", "list", "--from", "/nonexistent-tablescan"), UserError.NOT_FOUND,
                "--from: no folder /nonexistent-tablescan");
    }

    @Test
    void retentionNamesTheOptionThatIsWrong() {
        Cli.assertOneLine(Cli.run("backups", "prune", "--from", "/tmp", "--keep-last", "0"), UserError.USAGE,
                "--keep-last: 0 is not a count of sets to keep (1 or more)");
        Cli.assertOneLine(Cli.run("backups", "prune", "--from", "/tmp", "--keep-days", "-1"), UserError.USAGE,
                "--keep-days: -1 is not a number of days (0 or more)");
    }

    @Test
    void suggestionsNeedAtMostTwoEdits() {
        assertThat(ParameterErrors.distance("cpy", "copy")).isEqualTo(1);
        assertThat(ParameterErrors.distance("stauts", "status")).isEqualTo(1);
        assertThat(ParameterErrors.distance("stauts", "start")).isEqualTo(2);
        assertThat(ParameterErrors.suggestion("cpy", List.of("demo", "copy", "start"))).isEqualTo(" (did you mean 'copy'?)");
        assertThat(ParameterErrors.suggestion("export", List.of("demo", "copy", "start"))).isEmpty();
    }

    private static void assertSecretFree(Cli.Run run, String message) {
        Cli.assertOneLine(run, UserError.USAGE, message);
        for (String secret : List.of(KEY, "c2VjcmV0", "AccountKey", "EndpointSuffix", SAS, "sig=", "c2lnbmF0dXJl")) {
            assertThat(run.err() + run.out()).as("output of a mistake").doesNotContain(secret);
        }
        assertThat(run.err().lines().count()).as(run.err()).isEqualTo(1);
    }
}
