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
}
