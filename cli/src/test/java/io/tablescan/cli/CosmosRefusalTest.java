package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.AzureTableStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Cosmos DB for Table endpoint is never read by the scan (its pages come in no key order, and the scan would skip
 * rows and say it completed): every command that reads one says so in one line before any request.
 */
class CosmosRefusalTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private static String connection(String endpoint) {
        return "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + KEY + ";TableEndpoint=" + endpoint + ";";
    }

    @Test
    void cosmosHostsAreKnownAndStorageOnesAreNot() {
        for (String cosmos : List.of("https://acct.table.cosmos.azure.com:443/", "https://ACCT.table.cosmosdb.azure.com",
                "https://acct.table.cosmos.azure.cn/", "https://acct.table.cosmos.azure.us:443")) {
            assertThat(AzureTableStore.fromConnectionString(connection(cosmos)).cosmos()).as(cosmos).isTrue();
        }
        for (String storage : List.of("https://acct.table.core.windows.net/", "http://127.0.0.1:10002/devstoreaccount1",
                "https://cosmos.example.com/", "https://acct.table.core.chinacloudapi.cn")) {
            assertThat(AzureTableStore.fromConnectionString(connection(storage)).cosmos()).as(storage).isFalse();
        }
    }

    @Test
    void everyCommandThatReadsACosmosAccountRefusesItInOneLine() {
        String cosmos = connection("https://acct.table.cosmos.azure.com:443/");
        String storage = connection("http://127.0.0.1:9/devstoreaccount1"); // never reached: refused before
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_COSMOS_CONNECTION_STRING", cosmos);
        List<List<String>> commands = List.of(
                List.of("count", "--source-connection-string", cosmos, "--source-table", "Packages"),
                List.of("copy", "--source-account", "cosmos", "--source-table", "Packages", "--dest-connection-string",
                        storage, "--dest-table", "Copy"),
                List.of("export", "--source-account", "cosmos", "--source-table", "Packages", "--to", "/tmp/never"),
                List.of("profile", "--source-account", "cosmos", "--source-table", "Packages"),
                List.of("verify", "--source-connection-string", storage, "--source-table", "Packages",
                        "--dest-account", "cosmos", "--dest-table", "Packages"),
                List.of("copy", "--source-connection-string", storage, "--source-table", "Packages",
                        "--dest-account", "cosmos", "--dest-table", "Packages", "--mirror"));
        for (List<String> command : commands) {
            Cli.Run run = Cli.run(env, command.toArray(String[]::new));
            assertThat(run.exitCode()).as(String.join(" ", command.subList(0, 1)) + ": " + run.err()).isEqualTo(2);
            assertThat(run.err()).contains("Azure Cosmos DB for Table account").contains("no key order")
                    .doesNotContain(KEY).hasLineCount(1);
        }
    }
}
