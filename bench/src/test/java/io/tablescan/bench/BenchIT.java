package io.tablescan.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.TablescanCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ./tablescan bench as a user meets it: every scenario copies exactly and writes its figures and chart. */
class BenchIT {
    record Run(int exitCode, String out, String err) {}

    /** One command of the bench jar's tree (the tool's commands with the real bench), in this JVM. */
    static synchronized Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = TablescanCommand.execute(BenchMain.commandLine(), args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pipeline", "latency", "azurite", "seed-replica"})
    void everyBenchScenarioCopiesExactlyAndWritesItsFiguresAndChart(String scenario) throws Exception {
        java.nio.file.Path json = java.nio.file.Files.createTempFile("bench", ".json");
        java.nio.file.Path chart = java.nio.file.Files.createTempFile("bench", ".png");

        Run run = run("bench", "--scenario", scenario, "--rows", "2000", "--json", json.toString(), "--chart",
                chart.toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("copy exact");
        var strategies = BenchCommand.SCENARIOS.get(scenario).strategies();
        String figures = java.nio.file.Files.readString(json);
        for (String strategy : strategies) {
            assertThat(figures).contains("\"scenario\":\"" + scenario + "\",\"strategy\":\"" + strategy + "\",\"rows\":2000,");
        }
        assertThat(figures).contains("\"rowsPerSecond\":").contains("\"requests\":").contains("\"peakHeapMb\":")
                .contains("\"medians\":");
        byte[] png = java.nio.file.Files.readAllBytes(chart);
        assertThat(png).hasSizeGreaterThan(1000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void anUnknownBenchScenarioIsAUsageError() {
        assertOneLine(run("bench", "--scenario", "nosuch"), 2, "--scenario must be one of azurite, latency, pipeline, seed-replica");
    }


    static void assertOneLine(Run run, int exitCode, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(exitCode);
        assertThat(run.err()).contains(message).doesNotContain("\tat ").doesNotContain("Exception in thread");
        assertThat(run.err().lines().filter(l -> l.startsWith("tablescan:")).count()).isEqualTo(1);
    }
}
