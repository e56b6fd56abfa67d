package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.BrokerStart;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local copy's broker comes with the pipeline's topics already made (created while the copy's checks run), the
 * work items' topics with the local partitions and the others, the coordinators' and the ledger's changelog
 * included, with one each.
 */
class LocalTopicsIT {
    @TempDir
    Path dir;

    @Test
    void theBrokerStartCreatesThePipelinesTopicsWithFewPartitionsBesideTheWorkItems() throws Exception {
        BrokerStart start = BrokerStart.begin(dir.resolve("kafka"));
        try (EmbeddedKafkaBroker broker = start.take();
                Admin admin = KafkaSettings.inProcess(broker.bootstrapServers()).newAdmin()) {
            Namespace namespace = KafkaSettings.inProcess(broker.bootstrapServers()).namespace();
            // Read at once: nothing but the start has created any topic yet.
            Map<String, Integer> partitions = admin.describeTopics(namespace.topics()).allTopicNames().get()
                    .values().stream().collect(Collectors.toMap(TopicDescription::name, d -> d.partitions().size()));
            List<String> work = List.of(namespace.prefixQueries(), namespace.partitionQueries(),
                    namespace.entityBatches());
            for (String topic : namespace.topics()) {
                assertThat(partitions.get(topic)).as(topic).isEqualTo(work.contains(topic) ? Topics.LOCAL_PARTITIONS : 1);
            }
            // The ledger's changelog with them, as Kafka Streams would make it: compacted, a partition as the events'.
            String changelog = namespace.ledgerChangelog();
            assertThat(Topics.local(namespace)).contains(changelog);
            assertThat(admin.describeTopics(List.of(changelog)).allTopicNames().get().get(changelog).partitions())
                    .hasSize(partitions.get(namespace.scanEvents()));
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, changelog);
            assertThat(admin.describeConfigs(List.of(resource)).all().get().get(resource).get("cleanup.policy").value())
                    .isEqualTo("compact");
            // The coordinators' topics, made before the broker's start returns: one partition each.
            for (String topic : List.of("__consumer_offsets", "__transaction_state")) {
                assertThat(FreePorts.await(() -> {
                    try {
                        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                                .partitions().size() == 1;
                    } catch (Exception e) {
                        return false; // not there yet
                    }
                }, Duration.ofSeconds(30), () -> true)).as(topic).isTrue();
            }
        }
        assertThat(Files.exists(dir.resolve("kafka"))).isTrue(); // a kept directory stays for a rerun
    }
}
