package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.TablescanCommand;
import io.tablescan.cli.WorkerCommand;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.runtime.KafkaWait;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Settings;
import io.tablescan.runtime.WorkerRuntime;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * No cluster here: the Kubernetes manifests, the KEDA ScaledObjects and the README's configuration table are
 * checked against the code instead (commands, variables, consumer groups, topics, ports, partition counts).
 */
@SuppressWarnings("unchecked")
class KubernetesManifestsTest {
    private static final Path BASE = Path.of("..", "deploy", "k8s", "base");
    private static final Path OVERLAY = Path.of("..", "deploy", "k8s", "overlays", "example");

    private static List<Map<String, Object>> documents(Path dir) throws IOException {
        List<Map<String, Object>> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (Reader reader = Files.newBufferedReader(file)) {
                    for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                        if (doc != null) {
                            docs.add((Map<String, Object>) doc);
                        }
                    }
                }
            }
        }
        return docs;
    }

    private static List<Map<String, Object>> ofKind(List<Map<String, Object>> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
    }

    private static String name(Map<String, Object> doc) {
        return (String) ((Map<String, Object>) doc.get("metadata")).get("name");
    }

    private static Map<String, Object> at(Map<String, Object> map, String... path) {
        Map<String, Object> current = map;
        for (String key : path) {
            current = (Map<String, Object>) current.get(key);
        }
        return current;
    }

    private static Map<String, String> baseConfig() throws IOException {
        return (Map<String, String>) ofKind(documents(BASE), "ConfigMap").get(0).get("data");
    }

    @Test
    void everyResourceTheBaseListsExistsAndEveryPodRunsARealCommandWithVariablesTheCodeReads() throws IOException {
        Map<String, Object> kustomization = (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Files.readString(BASE.resolve("kustomization.yaml")));
        for (String resource : (List<String>) kustomization.get("resources")) {
            assertThat(BASE.resolve(resource)).exists();
        }
        baseConfig().keySet().forEach(v -> assertThat(Settings.reads(v)).as("config sets " + v).isTrue());
        int pods = 0;
        for (Map<String, Object> workload : workloads()) {
            Map<String, Object> pod = at(workload, "spec", "template", "spec");
            for (Map<String, Object> container : (List<Map<String, Object>>) pod.get("containers")) {
                pods++;
                List<String> args = (List<String>) container.get("args");
                TablescanCommand.commandLine().parseArgs(args.toArray(String[]::new));
                for (Map<String, Object> env : (List<Map<String, Object>>) container.getOrDefault("env", List.of())) {
                    assertThat(Settings.reads((String) env.get("name"))).as(name(workload) + " sets " + env.get("name")).isTrue();
                }
                int port = (Integer) ((List<Map<String, Object>>) container.get("ports")).get(0).get("containerPort");
                assertThat(port).isEqualTo(Integer.parseInt(baseConfig().get(MetricsServer.PORT)));
                assertThat(at(container, "readinessProbe", "httpGet").get("path")).isEqualTo("/health/ready");
                assertThat(at(container, "livenessProbe", "httpGet").get("path")).isEqualTo("/health/live");
                // A pod serves health only once Kafka answered: its startup probe outlasts the wait for a starting Kafka.
                Map<String, Object> startup = at(container, "startupProbe");
                assertThat((Integer) startup.get("periodSeconds") * (Integer) startup.get("failureThreshold"))
                        .as(name(workload) + " startup probe, seconds").isGreaterThan((int) KafkaWait.limit(baseConfig())
                                .plusSeconds(30).toSeconds());
                Map<String, String> annotations = (Map<String, String>) at(workload, "spec", "template", "metadata")
                        .get("annotations");
                assertThat(annotations.get("prometheus.io/port")).isEqualTo(Integer.toString(port));
            }
        }
        assertThat(pods).as("three workers and the ledger").isEqualTo(4);
        // The ledger's status page is on its metrics port, reachable through a Service of its own.
        Map<String, Object> service = ofKind(documents(BASE), "Service").stream().filter(d -> name(d).equals("ledger"))
                .findFirst().orElseThrow();
        assertThat(at(service, "spec", "selector").get("app.kubernetes.io/name")).isEqualTo("ledger");
        assertThat(((List<Map<String, Object>>) at(service, "spec").get("ports")).get(0).get("targetPort")).isEqualTo("metrics");
    }

    @Test
    void eachWorkerIsAStatefulSetWithStaticMembershipAndAScaledObjectOnItsOwnGroupAndTopic() throws IOException {
        List<Map<String, Object>> docs = documents(BASE);
        int partitions = Integer.parseInt(baseConfig().get("TABLESCAN_TOPIC_PARTITIONS"));
        // KEDA must watch the groups and topics of the namespace the pods use.
        Namespace namespace = Namespace.fromEnvironment(baseConfig());
        for (WorkerCommand.Kind kind : WorkerCommand.Kind.values()) {
            Map<String, Object> set = ofKind(docs, "StatefulSet").stream()
                    .filter(s -> name(s).equals(kind.worker + "-worker")).findFirst().orElseThrow();
            Map<String, Object> container = ((List<Map<String, Object>>) at(set, "spec", "template", "spec")
                    .get("containers")).get(0);
            assertThat((List<String>) container.get("args")).containsExactly("worker", kind.name());
            assertThat(container.get("env").toString()).contains("KAFKA_GROUP_INSTANCE_ID", "metadata.name");

            Map<String, Object> scaled = ofKind(docs, "ScaledObject").stream()
                    .filter(s -> at(s, "spec", "scaleTargetRef").get("name").equals(name(set))).findFirst().orElseThrow();
            assertThat(at(scaled, "spec", "scaleTargetRef").get("kind")).isEqualTo("StatefulSet");
            Map<String, Object> trigger = ((List<Map<String, Object>>) at(scaled, "spec").get("triggers")).get(0);
            assertThat(trigger.get("type")).isEqualTo("kafka");
            Map<String, Object> meta = (Map<String, Object>) trigger.get("metadata");
            assertThat(meta.get("consumerGroup")).isEqualTo(WorkerRuntime.groupId(namespace, kind.worker));
            assertThat(meta.get("topic")).isEqualTo(namespace.topic(kind.input));
            assertThat(meta.get("bootstrapServers")).isEqualTo(baseConfig().get("KAFKA_BOOTSTRAP_SERVERS"));
            assertThat((Integer) at(scaled, "spec").get("maxReplicaCount")).as("replicas beyond partitions idle")
                    .isBetween(1, partitions);
        }
    }

    @Test
    void theOverlaySetsOnlyVariablesTheCodeReadsAndPointsKedaAtTheSameCluster() throws IOException {
        Map<String, Object> kustomization = (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Files.readString(OVERLAY.resolve("kustomization.yaml")));
        Map<String, String> literals = new HashMap<>();
        for (Map<String, Object> generator : (List<Map<String, Object>>) kustomization.get("configMapGenerator")) {
            for (String literal : (List<String>) generator.get("literals")) {
                literals.put(literal.substring(0, literal.indexOf('=')), literal.substring(literal.indexOf('=') + 1));
            }
        }
        for (String file : List.of("secrets.env")) {
            for (String line : Files.readAllLines(OVERLAY.resolve(file))) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    literals.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
                }
            }
        }
        literals.keySet().forEach(v -> assertThat(Settings.reads(v)).as("overlay sets " + v).isTrue());
        assertThat(kustomization.get("patches").toString())
                .contains("bootstrapServers", "value: " + literals.get("KAFKA_BOOTSTRAP_SERVERS"));
        for (Object resource : (List<Object>) kustomization.get("resources")) {
            assertThat(OVERLAY.resolve((String) resource)).exists();
        }
    }

    @Test
    void theReadmeConfigurationTableListsEverySettingAndNoOther() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String table = readme.substring(readme.indexOf("## Configuration"), readme.indexOf("## Guarantees"));
        List<String> documented = new ArrayList<>();
        Matcher row = Pattern.compile("(?m)^\\| `([A-Z_<>]+)`").matcher(table);
        while (row.find()) {
            documented.add(row.group(1));
        }
        for (String name : Settings.NAMES) {
            assertThat(documented).as("README documents " + name).contains(name);
        }
        for (String name : documented) {
            String example = name.replace("<ALIAS>", "PROD").replace("<NAME>", "LINGER_MS");
            assertThat(Settings.reads(example)).as("README documents " + name + ", which the code reads").isTrue();
        }
    }

    private static List<Map<String, Object>> workloads() throws IOException {
        List<Map<String, Object>> docs = documents(BASE);
        List<Map<String, Object>> workloads = new ArrayList<>(ofKind(docs, "StatefulSet"));
        workloads.addAll(ofKind(docs, "Deployment"));
        return workloads;
    }
}
