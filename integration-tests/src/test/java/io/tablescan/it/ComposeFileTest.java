package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.TablescanCommand;
import io.tablescan.runtime.Settings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** docker-compose.yml cannot run here (no Docker engine): check that it says what the code does. */
class ComposeFileTest {
    @SuppressWarnings("unchecked")
    static Map<String, Object> services() throws IOException {
        try (Reader reader = Files.newBufferedReader(Path.of("..", "docker-compose.yml"))) {
            Map<String, Object> compose = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
            return (Map<String, Object>) compose.get("services");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyTablescanServiceRunsARealCommandWithVariablesTheWorkersRead() throws IOException {
        int tablescanServices = 0;
        for (var entry : services().entrySet()) {
            Map<String, Object> service = (Map<String, Object>) entry.getValue();
            if (!"tablescan:local".equals(service.get("image"))) {
                continue;
            }
            tablescanServices++;
            List<String> command = (List<String>) service.get("command");
            assertThat(command).as(entry.getKey()).isNotEmpty();
            // picocli throws on an unknown command or option
            TablescanCommand.commandLine().parseArgs(command.toArray(String[]::new));
            Map<String, Object> env = (Map<String, Object>) service.getOrDefault("environment", Map.of());
            for (String variable : env.keySet()) {
                assertThat(Settings.reads(variable)).as(entry.getKey() + " sets " + variable).isTrue();
            }
        }
        assertThat(tablescanServices).isEqualTo(8); // with the backup profile's backup and prune
    }

    @Test
    @SuppressWarnings("unchecked")
    void workersAreTheThreeKindsPlusTheLedgerAndNameAnAccountTheSeedUses() throws IOException {
        Map<String, Object> services = services();
        for (String worker : List.of("discovery", "partition", "copy")) {
            Map<String, Object> service = (Map<String, Object>) services.get(worker + "-worker");
            assertThat((List<String>) service.get("command")).containsExactly("worker", worker);
            assertThat((Map<String, Object>) service.get("environment"))
                    .containsKeys("KAFKA_BOOTSTRAP_SERVERS", "TABLESCAN_ACCOUNT_LOCAL_CONNECTION_STRING");
        }
        Map<String, Object> ledger = (Map<String, Object>) services.get("ledger");
        assertThat((List<String>) ledger.get("command")).as("the seed's --wait needs a ledger").containsExactly("ledger");
        assertThat((Map<String, Object>) ledger.get("environment")).containsKey("KAFKA_BOOTSTRAP_SERVERS")
                .containsKey("TABLESCAN_UI_TOKEN");
        assertThat((List<String>) ledger.get("ports")).as("the status page, on this machine only")
                .containsExactly("127.0.0.1:9400:9400");
        List<String> seed = (List<String>) ((Map<String, Object>) services.get("seed")).get("command");
        assertThat(seed.get(seed.indexOf("--source-account") + 1)).isEqualTo("local");
        assertThat(seed.get(seed.indexOf("--dest-account") + 1)).isEqualTo("local");
    }

    /** Started in any order: a service waits for a dependency's health only where that dependency has a health check. */
    @Test
    @SuppressWarnings("unchecked")
    void everyHealthyConditionNamesAServiceWithAHealthCheckAndTheOneShotsWaitForTheirServices() throws IOException {
        Map<String, Object> services = services();
        for (var entry : services.entrySet()) {
            Object dependsOn = ((Map<String, Object>) entry.getValue()).get("depends_on");
            if (!(dependsOn instanceof Map<?, ?> dependencies)) {
                continue;
            }
            dependencies.forEach((name, condition) -> {
                if ("service_healthy".equals(((Map<String, Object>) condition).get("condition"))) {
                    assertThat((Map<String, Object>) services.get(name)).as(entry.getKey() + " waits for " + name)
                            .containsKey("healthcheck");
                }
            });
        }
        Map<String, Object> sample = (Map<String, Object>) services.get("sample");
        assertThat(((Map<String, Object>) sample.get("depends_on")).get("azurite"))
                .as("the sample starts once Azurite listens, not once its container started").isEqualTo(Map.of("condition", "service_healthy"));
    }
}
