package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.cli.Cli;
import io.tablescan.cli.UserError;
import io.tablescan.local.AzuriteServer;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code --source-secondary} on Azurite: the account's secondary endpoint is a second Azurite holding an older
 * (lagging) version of the source table, so a copy that read there copies that version, into the primary; nothing
 * is written to the secondary, and a verify reading the secondary finds the copy equal to it (the primary's rows
 * would differ). The values are read back by the JavaScript SDK.
 */
class SourceSecondaryIT {
    private static List<Row> rows(int n, String value) {
        return IntStream.range(0, n).mapToObj(i -> new Row("p", String.format("r%02d", i),
                List.of(new RowProperty("V", EdmType.STRING, value)))).toList();
    }

    @Test
    void aCopyReadsTheSecondaryAndWritesThePrimary() throws Exception {
        TableStore primary = LocalServices.store();
        primary.createTableIfNotExists("secsrc");
        primary.upsert("secsrc", "p", rows(10, "primary"));
        try (AzuriteServer second = AzuriteServer.start()) {
            TableStore lagging = AzureTableStore.fromConnectionString(second.connectionString());
            lagging.createTableIfNotExists("secsrc");
            lagging.upsert("secsrc", "p", rows(6, "secondary"));
            Map<String, String> env = Map.of(
                    "TABLESCAN_ACCOUNT_PROD_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                    "TABLESCAN_ACCOUNT_PROD_SECONDARY_ENDPOINT", second.endpoint());

            Cli.Run copy = run(env, "copy", "--source-account", "prod", "--source-table", "secsrc", "--source-secondary",
                    "--dest-table", "seccopy");

            assertThat(copy.exitCode()).as(copy.out() + copy.err()).isZero();
            List<String> copied = FidelityIT.client("dump", "seccopy").lines().toList();
            assertThat(copied).hasSize(6).allMatch(l -> l.contains("\"V\":[null,\"secondary\"]"));
            assertThat(lagging.tableExists("seccopy")).as("nothing written to the secondary").isFalse();

            Cli.Run verify = run(env, "verify", "--source-account", "prod", "--source-table", "secsrc",
                    "--source-secondary", "--dest-table", "seccopy");
            assertThat(verify.exitCode()).as("the primary's 10 rows would differ: " + verify.out() + verify.err())
                    .isZero();
            assertThat(verify.out()).contains("equal: 6 rows compared");
        }
        assertOneLine(run("count", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "secsrc", "--source-secondary"), UserError.USAGE, "--source-secondary: the "
                + "connection string's table endpoint is not an Azure one");
    }
}
