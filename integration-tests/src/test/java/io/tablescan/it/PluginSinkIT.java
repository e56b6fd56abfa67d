package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.sink.SinkPlugins;
import io.tablescan.spi.Row;
import io.tablescan.table.Accounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A sink from a plugin jar, as a user runs it: the example module's swap-keys jar, found in its plugins folder
 * through TABLESCAN_PLUGINS (it is not on this test's class path: the pom keeps it off), driven by `copy --sink`
 * on Azurite and an embedded broker, and by `start --sink` on a cluster's workers. The index it writes is read
 * back over raw REST, not through the SDK.
 */
class PluginSinkIT {
    /** Where the example module's build puts its jar, alone in its folder: what the README points at. */
    static final Path PLUGINS = Path.of("..", "examples", "swap-keys-sink", "target", "plugins").toAbsolutePath()
            .normalize();
    static final String SOURCE = "pluginsource";
    static List<Row> rows;
    static String cs;

    @BeforeAll
    static void table() {
        assertThat(PLUGINS.resolve("swap-keys-sink.jar")).as("the example plugin, built before this module").exists();
        rows = new ArrayList<>(SampleTable.rows(1_200));
        Random random = new Random(19);
        for (int i = 0; i < 300; i++) { // one partition of many rows: batches of 100, partition queries
            rows.add(SampleTable.row("one.big.partition", String.format("%04d", i), random));
        }
        SampleTable.write(LocalServices.store(), SOURCE, rows, 8);
        cs = LocalServices.azurite().connectionString();
    }

    static Cli.Run copy(String... target) {
        return copy(Map.of(SinkPlugins.VARIABLE, PLUGINS.toString()), target);
    }

    static Cli.Run copy(Map<String, String> env, String... target) {
        List<String> args = new ArrayList<>(List.of("copy", "--source-connection-string", cs, "--source-table", SOURCE,
                "--page-size", "97"));
        args.addAll(List.of(target));
        return Cli.run(env, args.toArray(String[]::new));
    }

    /** A table as the REST API returns it, by key. */
    static Map<String, RestTableReader.WireRow> read(String table, Function<RestTableReader.WireRow, String> key) {
        Map<String, RestTableReader.WireRow> byKey = new java.util.TreeMap<>();
        Iterator<RestTableReader.WireRow> it = RestTableReader.fromConnectionString(cs).rows(table);
        while (it.hasNext()) {
            RestTableReader.WireRow row = it.next();
            assertThat(byKey.put(key.apply(row), row)).as("each key once").isNull();
        }
        return byKey;
    }

    @Test
    void copyWithThePluginsSinkWritesEveryRowOnceWithItsKeysSwapped() {
        Cli.Run run = copy("--sink", "swap-keys", "--sink-target", "PluginByRowKey");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("-> sink swap-keys PluginByRowKey")
                .contains(String.format("rows written:  %,d", rows.size()))
                .contains("; 0 failed");
        assertSwappedIndex("PluginByRowKey");

        // Run again (as after a crash, every batch replayed): the same index, no row twice.
        Cli.Run again = copy("--sink", "swap-keys", "--sink-target", "PluginByRowKey");
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertSwappedIndex("PluginByRowKey");
    }

    @Test
    void underInjectedFaultsThePluginsIndexIsStillExact() {
        // Table requests fail at random: 503 before they are applied, 500 or a dropped connection after. The
        // worker retries the failed batch whole, so the rate is low: a batch of this sink is one request per row
        // (100 for the big partition's), and all of one attempt must succeed.
        Cli.Run run = copy(Map.of(SinkPlugins.VARIABLE, PLUGINS.toString(), "TABLESCAN_FAULT_RATE", "0.003",
                "TABLESCAN_FAULT_KINDS", "busy,timeout,drop"), "--sink", "swap-keys", "--sink-target", "PluginFaulty");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains(String.format("rows written:  %,d", rows.size())).contains("; 0 failed");
        assertSwappedIndex("PluginFaulty");
    }

    @Test
    void startSeedsASinkScanThatTheClustersWorkersCompleteWithTheirPlugin() {
        // A broker of its own, and workers that have the plugin while this machine does not (--no-sink-check).
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
                LocalPipeline workers = LocalPipeline.start(WorkerSettings.local(
                        KafkaSettings.of(broker.bootstrapServers()),
                        new Accounts(name -> null).register("src", LocalServices.store()))
                        .withPlugins(SinkPlugins.in(PLUGINS)))) {
            Cli.Run run = Cli.run(Map.of(), "start", "--kafka", broker.bootstrapServers(), "--source-account", "src",
                    "--source-table", SOURCE, "--sink", "swap-keys", "--sink-target", "PluginStarted", "--dest-account",
                    "src", "--no-sink-check", "--wait", "--timeout", "3m");

            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            assertThat(run.out()).contains("-> sink swap-keys src/PluginStarted")
                    .contains(String.format("rows written:  %,d", rows.size()));
        }
        assertSwappedIndex("PluginStarted");
    }

    private static void assertSwappedIndex(String table) {
        Map<String, RestTableReader.WireRow> source = read(SOURCE, r -> r.partitionKey() + '\0' + r.rowKey());
        Map<String, RestTableReader.WireRow> index = read(table, r -> r.rowKey() + '\0' + r.partitionKey());
        assertThat(source).hasSize(rows.size());
        assertThat(index.keySet()).as("every row once, keys swapped").isEqualTo(source.keySet());
        source.forEach((key, row) -> assertThat(index.get(key).properties()).as(key)
                .isEqualTo(row.properties()));
    }

    @Test
    void aPermanentFailureOfThePluginIsParkedWithItsReasonAndCounted() throws Exception {
        // A table name the service refuses: prepare fails with a 400, permanent, so every batch is parked at once.
        Cli.Run run = copy("--sink", "swap-keys", "--sink-target", "no_such-name");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.FAILED);
        assertThat(run.out()).containsPattern("completed with [1-9][0-9]* failed items?").contains("rows written:  0")
                .containsPattern(", ([1-9][\\d,]*) entity batch(es)? \\(\\1 failed\\)").contains("open items:    0 of")
                .containsPattern("error: .*HTTP 400");
        assertThat(run.err()).doesNotContain("\tat ");
        assertThat(Files.list(PLUGINS)).as("the plugins folder holds the jar alone").hasSize(1);
    }
}
