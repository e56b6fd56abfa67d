package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.status.ScanTotals;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --json: one JSON object on standard output with the summary's figures; the lines for people on standard error. */
class JsonOutputTest {
    @Test
    void withJsonTheResultIsTheOnlyOutputAndTheSummaryGoesToStandardError() {
        JsonOutput output = new JsonOutput();
        new CommandLine(output).parseArgs("--json");
        ScanTotals completed = new ScanTotals("s1", ProgressPrinterTest.completed(ProgressPrinterTest.running()));

        Cli.Run run = Cli.capture(() -> {
            try {
                return output.around(() -> {
                    System.out.println("a line for people");
                    return new ProgressPrinter(System.out, false).summary(completed);
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("{\"scanId\":\"s1\",\"job\":\"copy\",\"source\":\"source/Packages\","
                + "\"target\":\"destination/PackagesCopy\",\"state\":\"COMPLETED\",\"complete\":true,\"rowsRead\":1000,"
                + "\"rowsWritten\":1000,\"partitions\":0,\"itemsFailed\":0,\"itemsSkipped\":0,\"seconds\":3.0,"
                + "\"counters\":{},\"errors\":[],\"exitCode\":0}" + System.lineSeparator());
        assertThat(run.err()).contains("a line for people").contains("scan s1 completed").contains("rows written:");
    }

    @Test
    void aResumedJobsResultHoldsNoneOfTheStatussOwnMarks() {
        JsonOutput output = new JsonOutput();
        new CommandLine(output).parseArgs("--json");
        var status = ProgressPrinterTest.completed(ProgressPrinterTest.running());
        status.setCounters(java.util.Map.of(io.tablescan.status.Counters.RESUMED, 1L,
                io.tablescan.status.Counters.STOPPED_MILLIS, 60_000L, "deleted", 7L));
        ScanTotals resumed = new ScanTotals("s1", status);

        Cli.Run run = Cli.capture(() -> {
            try {
                return output.around(() -> new ProgressPrinter(System.out, false).summary(resumed));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });

        assertThat(run.out()).contains("\"counters\":{\"deleted\":7}");
    }

    @Test
    void withoutJsonNothingChanges() throws Exception {
        JsonOutput output = new JsonOutput();
        Cli.Run run = Cli.capture(() -> {
            try {
                return output.around(() -> {
                    System.out.println("a line for people");
                    return 3;
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.out()).isEqualTo("a line for people" + System.lineSeparator());
        assertThat(JsonOutput.quoted("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    @Test
    void everyCommandThatEndsWithASummaryTakesJson() {
        for (String command : new String[] {"copy", "verify", "delete", "export", "import", "count", "backup",
                "restore"}) {
            assertThat(TablescanCommand.commandLine().getSubcommands().get(command).getCommandSpec()
                    .findOption("--json")).as(command).isNotNull();
        }
    }

    @Test
    void verifyOfAnExportOrASetRefusesJsonItCannotGiveTrue() {
        Cli.assertOneLine(Cli.run("verify", "--source-connection-string", "UseDevelopmentStorage=true", "--source-table",
                "T", "--from", "/nonexistent", "--json"), UserError.USAGE, "--json is not available with --from or "
                + "--from-set yet");
        Cli.assertOneLine(Cli.run("verify", "--from-set", "20261206T000000Z-abcd", "--from", "/nonexistent", "--json"),
                UserError.USAGE, "--json is not available with --from or --from-set yet");
    }

    @Test
    void anExportsResultNamesTheExportNotItsStagingCopy() {
        ScanTotals staged = new ScanTotals("s1", ProgressPrinterTest.completed(ProgressPrinterTest.running()));

        String result = JsonOutput.of(staged, 0, "folder /tmp/x", "export");

        assertThat(result).contains("\"job\":\"export\"").contains("\"target\":\"folder /tmp/x\"");
    }
}
