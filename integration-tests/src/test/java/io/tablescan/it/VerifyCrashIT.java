package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.DifferenceReport;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.control.ScanStarter;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A verify on a cluster of worker processes killed with SIGKILL at random moments and restarted (see
 * {@link CrashIT}): its counts and its differences topic stay exact, each difference once. Then the same verify and
 * a mirror seeded with start.
 */
class VerifyCrashIT {
    @Test
    void workersKilledWithSigkillMidVerifyCountEachDifferenceOnce() throws Exception {
        var store = LocalServices.store();
        List<Row> source = SampleTable.rows(30_000);
        SampleTable.write(store, "verifycrashsrc", source, 16);
        List<Row> dest = new ArrayList<>();
        int missing = 0;
        int different = 0;
        for (int i = 0; i < source.size(); i++) {
            Row row = source.get(i);
            if (i % 97 == 0) {
                missing++; // left out of the destination
            } else if (i % 89 == 0) {
                different++;
                dest.add(new Row(row.partitionKey(), row.rowKey(), List.of(new RowProperty("Id", EdmType.STRING, "x"))));
            } else {
                dest.add(row);
            }
        }
        int extra = 250;
        for (int i = 0; i < extra; i++) {
            dest.add(new Row("zz-extra", String.format("r%04d", i), List.of()));
        }
        SampleTable.write(store, "verifycrashdst", dest, 16);
        try (CrashIT.Cluster cluster = new CrashIT.Cluster("verify-crashes")) {
            var spec = ScanSpecs.verify().from(new TableRef("emulator", "verifycrashsrc"))
                    .to(new TableRef("emulator", "verifycrashdst")).pageSize(200).strategy(ScanStrategy.PREFIX).build();
            ScanStarter.start(cluster.kafka, spec);

            List<String> kills = cluster.killDuring(spec.getScanId(), 6, 3_000, ScanTotals::rowsRead);
            ScanTotals t = ScanAwait.ended(cluster.kafka, spec.getScanId(), Duration.ofMinutes(6));

            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(kills).hasSizeGreaterThanOrEqualTo(2);
            assertThat(t.rowsRead()).isEqualTo(30_000);
            assertThat(t.counter(Counters.MISSING)).isEqualTo(missing);
            assertThat(t.counter(Counters.DIFFERENT)).isEqualTo(different);
            assertThat(t.counter(Counters.EXTRA)).isEqualTo(extra);
            assertThat(t.rowsWritten()).isZero();
            DifferenceReport found = DifferenceReport.read(cluster.kafka, spec.getScanId(), null);
            assertThat(found.count(DifferenceKind.MISSING)).isEqualTo(missing);
            assertThat(found.count(DifferenceKind.DIFFERENT)).isEqualTo(different);
            assertThat(found.count(DifferenceKind.EXTRA)).isEqualTo(extra);

            // The same verify seeded with start on the cluster's workers, followed to its end with a report.
            java.nio.file.Path report = java.nio.file.Files.createTempFile("verify", ".jsonl");
            Cli.Run run = Cli.run(cluster.env, "start", "--verify", "--kafka", cluster.kafka.bootstrapServers(),
                    "--source-account", "emulator", "--source-table", "verifycrashsrc", "--dest-account", "emulator",
                    "--dest-table", "verifycrashdst", "--wait", "--report", report.toString());
            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.DIFFERENT);
            assertThat(run.out()).contains(String.format("different: %,d missing, %,d different, %,d extra", missing,
                    different, extra));
            assertThat(java.nio.file.Files.readAllLines(report)).hasSize(missing + different + extra);
            java.nio.file.Files.delete(report);

            // A mirror seeded with start on the same workers: the destination ends equal to the source, as the
            // JavaScript SDK reads both, having written only the rows that differed and deleted the extra ones.
            Cli.Run mirror = Cli.run(cluster.env, "start", "--mirror", "--kafka", cluster.kafka.bootstrapServers(),
                    "--source-account", "emulator", "--source-table", "verifycrashsrc", "--dest-account", "emulator",
                    "--dest-table", "verifycrashdst", "--wait");
            assertThat(mirror.exitCode()).as(mirror.out() + mirror.err()).isZero();
            assertThat(mirror.out()).contains(String.format("mirror: %,d rows were missing, %,d different (%,d "
                    + "written); ", missing, different, missing + different))
                    .contains(String.format("%,d extra, %,d deleted", extra, extra)).doesNotContain("next --since");
            assertThat(FidelityIT.client("dump", "verifycrashdst")).isEqualTo(FidelityIT.client("dump",
                    "verifycrashsrc"));
        }
    }
}
