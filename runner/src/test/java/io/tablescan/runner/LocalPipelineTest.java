package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.control.ScanStarter;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.FirstItems;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.KafkaClients;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A worker of the local pipeline that stops is reported, so that the command ends instead of waiting for ever; a
 * pipeline with no worker ends a scan its seed left nothing to do for.
 */
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

    /**
     * A closed pipeline leaves no share of a capped scan's rate running: its ticker went on publishing to the broker
     * the command stops next, and logged a WARN line after the summary of a run that succeeded.
     */
    @Test
    void aClosedPipelineStopsSharingCappedRates() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            io.tablescan.spi.TableStore unused = (io.tablescan.spi.TableStore) java.lang.reflect.Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {io.tablescan.spi.TableStore.class}, (p, m, a) -> {
                        if (m.isDefault()) { // what any store answers by default (rowsInKeyOrder: true)
                            return java.lang.reflect.InvocationHandler.invokeDefault(p, m, a);
                        }
                        throw new UnsupportedOperationException(m.getName());
                    });
            var settings = CopyRun.settings(kafka, new Accounts(name -> null).register("src", unused), Map.of());
            ScanSpec capped = ScanSpec.newBuilder().setScanId("scan-capped").setSource(new TableRef("src", "T"))
                    .setPageSize(100).setPageBudget(5).setCreatedAtMillis(1L).setLimits(Map.of("read", 100L)).build();
            try (LocalPipeline pipeline = LocalPipeline.start(settings, false)) {
                settings.store("src", new ItemContext(capped)); // the first capped item starts the shares
                assertThat(rateThreads()).isNotEmpty();
            }
            assertThat(io.tablescan.local.FreePorts.await(() -> rateThreads().isEmpty(), Duration.ofSeconds(10),
                    () -> true)).as("threads left: " + rateThreads()).isTrue();
        }
    }

    private static List<String> rateThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.equals("rate-shares") || name.equals("rate-demands")).toList();
    }

    /** A handler that reads {@code rows} rows and emits nothing: the scan's only item. */
    static <T extends SpecificRecord> ItemHandler<T> reading(Class<T> type, long rows) {
        return new ItemHandler<>() {
            @Override
            public Class<T> type() {
                return type;
            }

            @Override
            public Result handle(T item, ItemContext context) {
                return new Result(List.of(), rows, 0, 1);
            }
        };
    }

    @Test
    void aScanWhoseItemsWereAllHandledBeforeItsSeedEndsOnTheLedgerAloneWithNoWorker() throws Exception {
        ScanSpec spec = ScanSpec.newBuilder().setScanId("first-only").setSource(new TableRef("a", "Source"))
                .setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1_000).build(); // a count: no destination
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            FirstItems first = FirstItems.handle(kafka, spec, reading(PrefixQuery.class, 42),
                    reading(PartitionQuery.class, 0), reading(SpecificRecord.class, 0), () -> true);
            assertThat(first.all()).isTrue();
            try (LocalPipeline pipeline = LocalPipeline.start(CopyRun.settings(kafka, new Accounts(name -> null),
                    Map.of()), true, () -> false);
                    ScanStatusReader reader = new ScanStatusReader(kafka);
                    Admin admin = kafka.newAdmin()) {
                ScanStarter.start(kafka, spec, first);
                ScanTotals totals = reader.await(spec.getScanId(), ScanTotals::ended, Duration.ofSeconds(60),
                        Duration.ofSeconds(60), null);

                assertThat(totals.ended()).isTrue();
                assertThat(totals.rowsRead()).isEqualTo(42);
                assertThat(admin.listGroups().all().get().stream().map(group -> group.groupId()))
                        .noneMatch(group -> group.contains("discovery") || group.contains("partition")
                                || group.contains("copy"));
            }
        }
    }
}
