package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Where the rows go, on copy and start: exactly one target, each mistake one line and exit 2 before anything is
 * read or connected (the source's connection string points nowhere: a check that reached it would say so).
 */
class TargetOptionsTest {
    static final String CS = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
            + "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"
            + "TableEndpoint=http://127.0.0.1:1/devstoreaccount1;";
    static final String[] COPY = {"copy", "--source-connection-string", CS, "--source-table", "src"};
    static final String[] COPY_OPTIONS = java.util.Arrays.copyOfRange(COPY, 1, COPY.length);
    static final String[] START = {"start", "--kafka", "127.0.0.1:1", "--source-account", "a", "--source-table", "src"};

    @TempDir
    Path folder;

    static String[] with(String[] command, String... more) {
        String[] args = java.util.Arrays.copyOf(command, command.length + more.length);
        System.arraycopy(more, 0, args, command.length, more.length);
        return args;
    }

    /**
     * The source's account spelt another way as the destination (localhost for 127.0.0.1, another case, a trailing
     * '/', IPv6's loopback) is the source: refused in one line before anything is read or a broker started.
     */
    @Test
    void aDestinationThatIsTheSourceSpeltAnotherWayIsRefused() {
        for (String endpoint : new String[] {"http://localhost:1/devstoreaccount1", "HTTP://LocalHost:1/DevStoreAccount1/",
                "http://[::1]:1/devstoreaccount1"}) {
            String same = CS.replace("http://127.0.0.1:1/devstoreaccount1", endpoint);
            Cli.assertOneLine(Cli.run(with(COPY, "--dest-connection-string", same, "--dest-table", "SRC")),
                    UserError.USAGE, "the destination is the source: table src on the same account");
            Cli.assertOneLine(Cli.run("verify", "--source-connection-string", CS, "--source-table", "src",
                    "--dest-connection-string", same, "--dest-table", "Src"), UserError.USAGE,
                    "the destination is the source");
        }
    }

    @Test
    void noTargetOrTwoAreRefused() {
        for (String[] command : new String[][] {COPY, START}) {
            Cli.assertOneLine(Cli.run(command), UserError.USAGE,
                    "give where the rows go: --dest-table TABLE, --to-topic NAME or --sink TYPE");
            Cli.assertOneLine(Cli.run(with(command, "--dest-table", "dst", "--dest-account", "b", "--sink", "count")),
                    UserError.USAGE, "give one target, not --dest-table and --sink");
            Cli.assertOneLine(Cli.run(with(command, "--dest-table", "dst", "--sink-target", "x")), UserError.USAGE,
                    "--sink-target needs --sink TYPE");
        }
        Cli.assertOneLine(Cli.run(with(START, "--dest-table", "dst")), UserError.USAGE,
                "--dest-table needs --dest-account ALIAS");
        Cli.assertOneLine(Cli.run(with(COPY, "--sink", "table", "--sink-target", "dst")), UserError.USAGE,
                "give --dest-table TABLE, not --sink table");
    }

    @Test
    void aTopicIsOneTargetWithANameKafkaTakesOutsideTablescansOwnAndCopyPublishesOnlyToACluster() {
        for (String[] command : new String[][] {COPY, START}) {
            Cli.assertOneLine(Cli.run(with(command, "--to-topic", "rows", "--dest-table", "dst")), UserError.USAGE,
                    "give one target, not --dest-table and --to-topic");
            Cli.assertOneLine(Cli.run(with(command, "--to-topic", "rows out")), UserError.USAGE,
                    "--to-topic must be a Kafka topic name");
            Cli.assertOneLine(Cli.run(with(command, "--sink", "topic", "--sink-target", "rows")), UserError.USAGE,
                    "give --to-topic NAME, not --sink topic");
            Cli.assertOneLine(Cli.run(with(command, "--to-topic", "rows", "--topic-compression", "lz5")),
                    UserError.USAGE, "--topic-compression must be one of none, gzip, snappy, lz4, zstd");
            Cli.assertOneLine(Cli.run(with(command, "--dest-table", "dst", "--topic-compression", "gzip")),
                    UserError.USAGE, "--topic-compression needs --to-topic NAME");
        }
        Cli.assertOneLine(Cli.run(with(COPY, "--to-topic", "rows")), UserError.USAGE,
                "--to-topic needs --kafka HOST:PORT");
        // One rule for copy and start: no topic of tablescan's namespace, today's roles or any other; no work topic of
        // any other namespace on the cluster; none of Kafka's internal topics.
        Map<String, String> refused = Map.of("tablescan.entity-batches", "is a name of tablescan's own topics (namespace "
                + "tablescan)", "tablescan.scans", "is a name of tablescan's own topics (namespace tablescan)",
                "tablescan.export-1", "is a topic of tablescan's own (namespace tablescan)",
                "tablescan-ledger-scans-changelog", "is a name of tablescan's own topics (namespace tablescan)",
                "tablescan-copy-0a1b2c3d.scan-events", "is a name of tablescan's own topics (namespace tablescan-copy-0a1b2c3d)",
                "team2.entity-batches", "is a name of tablescan's own topics (namespace team2)",
                "team2.export-scan-20261206-120000-abcd", "is a name of tablescan's own topics (namespace team2)",
                "__consumer_offsets", "is one of Kafka's internal topics: give a topic of your own",
                "__transaction_state", "is one of Kafka's internal topics: give a topic of your own");
        refused.forEach((topic, why) -> {
            String line = "--to-topic " + topic + " " + why;
            Cli.assertOneLine(Cli.run(Map.of(), with(START, "--to-topic", topic)), UserError.USAGE, line);
            Cli.assertOneLine(Cli.run(Map.of(), with(COPY, "--to-topic", topic, "--kafka", "127.0.0.1:1")),
                    UserError.USAGE, line);
        });
        Cli.assertOneLine(Cli.run(Map.of("TABLESCAN_NAMESPACE", "team"), with(COPY, "--to-topic", "team.scans",
                "--kafka", "127.0.0.1:1")), UserError.USAGE, "--to-topic team.scans is a name of tablescan's own topics");
        Cli.assertOneLine(Cli.run(Map.of("TABLESCAN_NAMESPACE", "team"), with(START, "--to-topic", "team2.scan-control")),
                UserError.USAGE, "--to-topic team2.scan-control is a name of tablescan's own topics (namespace team2)");
    }

    @Test
    void aJobsRulesAreTheSameOnCopyAndStart() {
        String[] copyToTable = with(COPY, "--dest-table", "dst");
        String[] startToTable = with(START, "--dest-table", "dst", "--dest-account", "b");
        for (String[] command : new String[][] {copyToTable, startToTable}) {
            Cli.assertOneLine(Cli.run(Map.of(), with(command, "--mirror", "--filter", "Major eq 1")), UserError.USAGE,
                    "--mirror takes no --filter: a destination row the filter selects may be one the source holds");
            Cli.assertOneLine(Cli.run(Map.of(), with(command, "--mirror", "--since", "2026-01-01")), UserError.USAGE,
                    "--mirror takes no --since: an incremental read cannot know which rows the source deleted");
        }
        for (String[] command : new String[][] {COPY, START}) {
            Cli.assertOneLine(Cli.run(Map.of(), with(command, "--mirror", "--to-topic", "rows")), UserError.USAGE,
                    "--mirror needs --dest-table: it mirrors into a table");
            Cli.assertOneLine(Cli.run(Map.of(), with(command, "--changed-only", "--sink", "table2")), UserError.USAGE,
                    "--changed-only needs --dest-table: it compares with a table");
        }
        Cli.assertOneLine(Cli.run(Map.of(), with(startToTable, "--verify", "--since", "2026-01-01")), UserError.USAGE,
                "--verify takes no --since: rows deleted from the source since then would go unseen");
        Cli.assertOneLine(Cli.run(Map.of(), with(startToTable, "--verify", "--mirror")), UserError.USAGE,
                "give at most one of --verify, --mirror and --changed-only");
    }

    @Test
    void aMalformedSinkOptionIsNamedByItsPlaceNeverItsValue() {
        String secret = "sv:2019/sig+c2VjcmV0LWtleQ"; // no KEY= shape, so not taken for an option
        Cli.Run run = Cli.run(with(COPY, "--sink", "count", "--sink-option", "a=1", "--sink-option", secret));
        Cli.assertOneLine(run, UserError.USAGE, "--sink-option number 2 is not KEY=VALUE");
        assertThat(run.err()).doesNotContain(secret);
        Cli.assertOneLine(Cli.run(with(COPY, "--sink", "count", "--sink-option", "=" + secret)), UserError.USAGE,
                "--sink-option number 1 is not KEY=VALUE");
        Cli.assertOneLine(Cli.run(with(COPY, "--sink", "count", "--sink-option", "a=1", "--sink-option", "a=2")),
                UserError.USAGE, "--sink-option a is given twice");
        Cli.assertOneLine(Cli.run(with(COPY, "--sink", "a b")), UserError.USAGE,
                "--sink must be a sink type: letters, digits");
    }

    @Test
    void anUnknownSinkTypeNamesTheKnownOnesOnCopyAndStart() {
        for (String[] command : new String[][] {COPY, START}) {
            Cli.assertOneLine(Cli.run(Map.of(), with(command, "--sink", "nosuch")), UserError.USAGE,
                    "unknown sink type 'nosuch': this machine has sinks of type table (plugin jars go in the folder "
                            + "TABLESCAN_PLUGINS names)");
        }
        // start with --no-sink-check goes on: to Kafka, which is not there
        Cli.Run unchecked = Cli.run(Map.of(), with(START, "--sink", "nosuch", "--no-sink-check"));
        Cli.assertOneLine(unchecked, UserError.UNREACHABLE, "Kafka");
    }

    @Test
    void aPluginsFolderThatIsNotThereOrAJarThatCannotBeReadIsOneLine() throws IOException {
        Path missing = folder.resolve("nosuch");
        for (String[] command : new String[][] {COPY, START}) {
            Cli.assertOneLine(Cli.run(Map.of(SinkPlugins.VARIABLE, missing.toString()),
                    with(command, "--sink", "count")), UserError.USAGE, "TABLESCAN_PLUGINS names no folder: " + missing);
        }
        Files.writeString(folder.resolve("broken.jar"), "not a jar");
        Cli.assertOneLine(Cli.run(Map.of(SinkPlugins.VARIABLE, folder.toString()), with(COPY, "--dest-table", "dst")),
                UserError.USAGE, "TABLESCAN_PLUGINS: cannot read the plugin jar " + folder.resolve("broken.jar"));
    }

    @Test
    void theSpecCarriesTheSinkWithItsTargetAndOptions() {
        CopyCommand copy = new CopyCommand();
        new CommandLine(copy).parseArgs(with(COPY_OPTIONS, "--sink", "swap-keys", "--sink-target", "ByKey", "--sink-option",
                "mode=fast", "--sink-option", "note=a=b"));
        copy.target.validate();
        ScanSpec spec = copy.target.applyTo(ScanSpecs.copy().from(new TableRef("source", "src")), "source").build();

        assertThat(spec.getDestination()).isNull();
        assertThat(spec.getSink().getType()).isEqualTo("swap-keys");
        assertThat(spec.getSink().getAccount()).isEqualTo("source");
        assertThat(spec.getSink().getTarget()).isEqualTo("ByKey");
        assertThat(spec.getSink().getOptions()).isEqualTo(Map.of("mode", "fast", "note", "a=b"));
        assertThat(ProgressPrinter.target(spec, true)).isEqualTo("sink swap-keys source/ByKey");

        CopyCommand noTarget = new CopyCommand();
        new CommandLine(noTarget).parseArgs(with(COPY_OPTIONS, "--sink", "count"));
        ScanSpec count = noTarget.target.applyTo(ScanSpecs.copy().from(new TableRef("s", "src")), null).build();
        assertThat(count.getSink().getTarget()).as("the default target").isEmpty();
        assertThat(ProgressPrinter.target(count, true)).isEqualTo("sink count");
    }
}
