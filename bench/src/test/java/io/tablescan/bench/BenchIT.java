package io.tablescan.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.TablescanCommand;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ./tablescan bench as a user meets it: every scenario copies exactly and writes its figures and chart. */
class BenchIT {
    /** Rows a scenario's tables hold in the default tier: several pages and items of every strategy, not figures. */
    private static final String ROWS = "500";
    /** The release tier's scenarios, and the figures they check, are those of 2,000 rows. */
    private static final String RELEASE_ROWS = "2000";

    /** One command of the bench jar's tree (the tool's commands with the real bench), in this JVM. */
    static Cli.Run run(String... args) {
        return Cli.capture(() -> TablescanCommand.execute(BenchMain.commandLine(), args));
    }

    /** Each of the bench's runners once: the in-memory pipeline, the seed-replica model, verify, mirror, the files. */
    @ParameterizedTest
    @ValueSource(strings = {"pipeline", "seed-replica-503", "verify", "mirror", "export", "import"})
    void everyBenchScenarioCopiesExactlyAndWritesItsFiguresAndChart(String scenario) throws Exception {
        copiesExactlyAndWritesItsFiguresAndChart(scenario, ROWS);
    }

    /**
     * In the release tier: scenarios that run a runner of the default tier's on another model: latency is the pipeline
     * with 100 ms a request, seed-replica is seed-replica-503 without its throttling, seed-replica-export the export
     * on the seed-replica model.
     */
    @Tag("release")
    @ParameterizedTest
    @ValueSource(strings = {"latency", "seed-replica", "seed-replica-export"})
    void theOtherModelsCopyExactlyAndWriteTheirFiguresAndChart(String scenario) throws Exception {
        copiesExactlyAndWritesItsFiguresAndChart(scenario, ROWS);
    }

    /**
     * In the release tier: three strategies copying on Azurite (about 25 s on a loaded machine); in the default tier the
     * verify scenario runs the bench on Azurite, and the integration tests copy on it (prefix and serial).
     */
    @Tag("release")
    @Test
    void theAzuriteScenarioCopiesExactlyAndWritesItsFiguresAndChart() throws Exception {
        copiesExactlyAndWritesItsFiguresAndChart("azurite", RELEASE_ROWS);
    }

    /**
     * Apart from the others: three runs of 4, 7 and 13 child JVMs (1, 2 and 4 of each worker kind, and a ledger), about
     * 5 minutes on 2 cores. In the release tier: the workers as separate processes are proven in the default tier by
     * the integration tests' clusters; this proves the bench's scaling scenario itself.
     */
    @Tag("release")
    @Test
    void theScalingScenarioCopiesExactlyWithItsWorkersAsProcesses() throws Exception {
        Cli.Run run = copiesExactlyAndWritesItsFiguresAndChart("scaling", RELEASE_ROWS);
        assertThat(run.out()).contains("scaling from seeding: 2/1 ").contains(" 4/1 ").contains("steady (10% to 90%");
    }

    private static Cli.Run copiesExactlyAndWritesItsFiguresAndChart(String scenario, String rows) throws Exception {
        java.nio.file.Path json = java.nio.file.Files.createTempFile("bench", ".json");
        java.nio.file.Path chart = java.nio.file.Files.createTempFile("bench", ".png");

        Cli.Run run = run("bench", "--scenario", scenario, "--rows", rows, "--json", json.toString(), "--chart",
                chart.toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        var strategies = BenchCommand.SCENARIOS.get(scenario).strategies();
        for (String strategy : strategies) {
            assertThat(run.out()).contains(BenchCommand.outcome(strategy));
        }
        String figures = java.nio.file.Files.readString(json);
        for (String strategy : strategies) {
            assertThat(figures).contains("\"scenario\":\"" + scenario + "\",\"strategy\":\"" + strategy + "\",\"rows\":" + rows + ",");
        }
        assertThat(figures).contains("\"rowsPerSecond\":").contains("\"requests\":").contains("\"peakHeapMb\":")
                .contains("\"medians\":");
        byte[] png = java.nio.file.Files.readAllBytes(chart);
        assertThat(png).hasSizeGreaterThan(1000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        return run;
    }

    /**
     * The incremental set's chain restored into another account equals the changed tables, deletes included. In the
     * release tier: BackupSetIT proves the same chain's restore in the default tier; this proves the bench's scenario.
     */
    @Tag("release")
    @Test
    void theBackupSetScenarioRestoresItsIncrementalChainToTheChangedTables() throws Exception {
        Cli.Run run = copiesExactlyAndWritesItsFiguresAndChart("backup-set", RELEASE_ROWS);
        assertThat(run.out()).contains("changed 20 rows").contains("Packages: 8 changed rows (of 1,000)")
                .contains("Packages: restored 1,000 rows into Packages (1,008 row writes over 2 exports, 2 rows deleted)")
                .contains("restore of the chain: every table equal to the changed table");
    }

    @Test
    void anUnknownBenchScenarioIsAUsageError() {
        Cli.assertOneLine(run("bench", "--scenario", "nosuch"), 2, "--scenario must be one of azurite, backup-set, export, import, latency, mirror, pipeline, scaling, seed-replica, seed-replica-503, seed-replica-export, verify");
    }
}
