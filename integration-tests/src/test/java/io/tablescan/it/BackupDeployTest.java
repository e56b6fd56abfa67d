package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.TablescanCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The nightly backup's CronJobs and compose services run real commands: a backup set, then retention. */
class BackupDeployTest {
    @Test
    @SuppressWarnings("unchecked")
    void theCronJobsBackUpThenPruneWithCommandsTheToolTakes() throws IOException {
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        List<String> schedules = new ArrayList<>();
        boolean incremental = false;
        for (Object document : yaml.loadAll(Files.readString(Path.of("..", "deploy", "k8s", "backup",
                "backup-cronjobs.yaml")))) {
            Map<String, Object> cronJob = (Map<String, Object>) document;
            assertThat(cronJob.get("kind")).isEqualTo("CronJob");
            Map<String, Object> spec = (Map<String, Object>) cronJob.get("spec");
            schedules.add((String) spec.get("schedule"));
            assertThat(spec.get("concurrencyPolicy")).as("never two backups at once").isEqualTo("Forbid");
            Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>)
                    ((Map<String, Object>) spec.get("jobTemplate")).get("spec")).get("template")).get("spec");
            List<String> backup = args(((List<Map<String, Object>>) pod.get("initContainers")).getFirst());
            List<String> prune = args(((List<Map<String, Object>>) pod.get("containers")).getFirst());
            assertThat(backup.getFirst()).isEqualTo("backup");
            assertThat(prune.subList(0, 2)).containsExactly("backups", "prune");
            incremental |= backup.contains("--incremental");
            assertThat(prune.get(prune.indexOf("--from-prefix") + 1))
                    .isEqualTo(backup.get(backup.indexOf("--to-prefix") + 1));
        }
        assertThat(schedules).containsExactly("0 2 * * 1-6", "0 2 * * 0");
        assertThat(incremental).isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theComposeBackupProfileBacksUpThenPrunes() throws IOException {
        Map<String, Object> services = ComposeFileTest.services();
        List<String> backup = (List<String>) ((Map<String, Object>) services.get("backup")).get("command");
        Map<String, Object> prune = (Map<String, Object>) services.get("prune");
        parse(backup);
        parse((List<String>) prune.get("command"));
        assertThat(backup).contains("--incremental");
        assertThat(((Map<String, Object>) prune.get("depends_on")).get("backup"))
                .isEqualTo(Map.of("condition", "service_completed_successfully"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> args(Map<String, Object> container) {
        List<String> args = (List<String>) container.get("args");
        parse(args);
        return args;
    }

    /** picocli throws on an unknown command or option. */
    private static void parse(List<String> args) {
        TablescanCommand.commandLine().parseArgs(args.toArray(String[]::new));
    }
}
