package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.KafkaClients;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** A worker of the local pipeline that stops is reported, so that the command ends instead of waiting for ever. */
class LocalPipelineTest {
    /** Kafka's clients, but the discovery worker's consumer never learns its committed offsets. */
    static final KafkaClients DISCOVERY_NEVER_ANSWERED = KafkaClients.withConsumers(config -> {
        if (!config.getProperty("group.id", "").contains("discovery")) {
            return KafkaClients.KAFKA.consumer(config);
        }
        return new KafkaConsumer<>(config) {
            @Override
            public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
                throw new TimeoutException("Timeout of 60000ms expired before the last committed offset");
            }

            @Override
            public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
                return committed(partitions);
            }
        };
    });

    @Test
    void aWorkerThatStopsIsTheRunsFailure() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers()).withClients(DISCOVERY_NEVER_ANSWERED);
            try (LocalPipeline pipeline = LocalPipeline.start(CopyRun.settings(kafka, new Accounts(name -> null),
                    Map.of()))) {
                io.tablescan.local.FreePorts.await(() -> pipeline.failure() != null, Duration.ofSeconds(60), () -> true);
                assertThat(pipeline.failure()).startsWith("the discovery worker stopped (TimeoutException: ");
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> WorkerStoppedException.check(pipeline,
                        false, "run it again")).isInstanceOf(WorkerStoppedException.class)
                        .hasMessageEndingWith("; run it again");
                WorkerStoppedException.check(pipeline, true, "ended: nothing to say");
            }
        }
    }
}
