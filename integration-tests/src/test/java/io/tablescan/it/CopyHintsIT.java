package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.runner.TableComparer;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A copy whose writes are refused ends with failed items; the hint it gives must be one that works where the
 * copy ran. On the embedded broker the record of the failures ends with the command, so the hint is to run the
 * copy again, and that run, with the cause fixed, completes it.
 */
class CopyHintsIT {
    /** Signed for reading and creating tables but not for writing rows: every batch gets 403. */
    static String createButNoWrite() {
        var azurite = LocalServices.azurite();
        String sas = new TableServiceClientBuilder().connectionString(azurite.connectionString()).buildClient()
                .generateAccountSas(new TableAccountSasSignatureValues(OffsetDateTime.now().plusHours(1),
                        TableAccountSasPermission.parse("rlc"), new TableAccountSasService().setTableAccess(true),
                        new TableAccountSasResourceType().setService(true).setContainer(true).setObject(true)));
        return "TableEndpoint=" + azurite.endpoint() + ";SharedAccessSignature=" + sas;
    }

    @Test
    void aFailedCopyHintsAtWhatWorksOnTheEmbeddedBrokerAndOnACluster() {
        var store = LocalServices.store();
        SampleTable.write(store, "hintsource", SampleTable.rows(600), 8);
        String source = LocalServices.azurite().connectionString();
        String refusing = createButNoWrite();

        Cli.Run embedded = Cli.run("copy", "--source-connection-string", source, "--source-table", "hintsource",
                "--dest-connection-string", refusing, "--dest-table", "hintcopy");

        assertThat(embedded.exitCode()).as(embedded.out() + embedded.err()).isEqualTo(UserError.FAILED);
        // the items line counts the failed entity batches too, and says so
        assertThat(embedded.out()).containsPattern(", [1-9][\\d,]* entity batch(es)? \\([1-9][\\d,]* failed\\)");
        assertThat(embedded.out()).contains("completed with").contains("403")
                .containsPattern("failed items?: fix the cause \\(errors above\\), then run the same copy again: it is idempotent")
                .doesNotContain("tablescan failures").doesNotContain("tablescan retry");
        // No watermark after a failed copy: a later --since would never read the rows it did not copy.
        assertThat(embedded.out()).contains("next --since:  none: not every row was copied; run the same command "
                + "again").doesNotContainPattern("next --since:  \\d");

        String bootstrap = LocalServices.broker().bootstrapServers();
        Cli.Run cluster = Cli.run("copy", "--source-connection-string", source, "--source-table", "hintsource",
                "--dest-connection-string", refusing, "--dest-table", "hintcopy", "--kafka", bootstrap);

        assertThat(cluster.exitCode()).as(cluster.out() + cluster.err()).isEqualTo(UserError.FAILED);
        // Its private namespace, and with it the record of its failures, is gone: the hint is the embedded one.
        assertThat(cluster.out()).containsPattern("failed items?: fix the cause \\(errors above\\), then run the same copy again")
                .doesNotContain("tablescan failures").doesNotContain("tablescan retry");
        assertThat(embedded.out() + embedded.err() + cluster.out() + cluster.err()).doesNotContain("sig=");

        Cli.Run again = Cli.run("copy", "--source-connection-string", source, "--source-table", "hintsource",
                "--dest-table", "hintcopy");
        assertThat(again.exitCode()).as("the hint works: " + again.out() + again.err()).isZero();
        assertThat(again.out()).containsPattern("next --since:  \\d{4}-\\d\\d-\\d\\dT");
        assertThat(TableComparer.compare(store, "hintsource", store, "hintcopy").equal()).isTrue();
    }

    /**
     * A topic that refuses every row's record (its max.message.bytes is below one): the copy's items are parked
     * round by round, which the summary reports (its items line with the failed entity batches, the reason among
     * its errors); no WARN log line repeats it among the copy's lines.
     */
    @Test
    void aCopyWhoseRecordsATopicRefusesSaysSoInItsSummaryWithoutWarnLines() throws Exception {
        SampleTable.write(LocalServices.store(), "hintrefused", SampleTable.rows(300), 8);
        String kafka = LocalServices.broker().bootstrapServers();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka))) {
            admin.createTopics(List.of(new NewTopic("hint-small-rows", 2, (short) 1)
                    .configs(Map.of("max.message.bytes", "100")))).all().get();
        }

        Cli.Run run = Cli.run("copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "hintrefused", "--to-topic", "hint-small-rows", "--kafka", kafka, "--page-size", "100");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.FAILED);
        assertThat(run.out()).containsPattern("completed with [1-9][\\d,]* failed items?")
                .containsPattern(", ([1-9][\\d,]*) entity batch(es)? \\(\\1 failed\\)")
                .contains("topic hint-small-rows refused a record");
        assertThat(run.out() + run.err()).as("log lines at WARN about the parked items")
                .doesNotContainPattern("WARN .*(parking|WorkerRuntime)");
    }
}
