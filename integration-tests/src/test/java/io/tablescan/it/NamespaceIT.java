package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/**
 * Several deployments on one Kafka cluster: an in-process {@code copy --kafka} works in a private namespace
 * of its own (removed when it ends), and deployments with different namespaces never see each other's scans.
 */
class NamespaceIT {
    static final TableStore STORE = LocalServices.store();
    static final String BOOTSTRAP = LocalServices.broker().bootstrapServers();
    static final KafkaSettings KAFKA = KafkaSettings.of(BOOTSTRAP);

    static WorkerSettings clusterWorkers(KafkaSettings kafka) {
        return WorkerSettings.local(kafka, new Accounts(name -> null).register("src", STORE).register("dst", STORE));
    }

    @Test
    void anInProcessCopyTakesNoneOfTheClustersItemsAndLeavesNothingBehind() throws Exception {
        SampleTable.write(STORE, "nsclustersource", SampleTable.rows(3_000), 8);
        SampleTable.write(STORE, "nscopysource", SampleTable.rows(2_000), 8);
        // Seeded for the cluster's workers (aliases src and dst), none of which runs yet.
        Cli.Run started = Cli.run("start", "--kafka", BOOTSTRAP, "--source-account", "src", "--source-table",
                "nsclustersource", "--dest-account", "dst", "--dest-table", "nsclustercopy", "--page-size", "200");
        assertThat(started.exitCode()).as(started.err()).isZero();
        String scanId = started.printed().getFirst();
        ConsumerRecord<byte[], byte[]> root = rootItem(KAFKA, scanId);

        // Another user's copy of another table, with its own credentials, through the same cluster.
        Cli.Run copy = Cli.run("copy", "--kafka", BOOTSTRAP, "--source-connection-string",
                LocalServices.azurite().connectionString(), "--source-table", "nscopysource", "--dest-table", "nscopycopy",
                "--page-size", "200");
        assertThat(copy.exitCode()).as(copy.err()).isZero();
        assertThat(copy.err()).as("clean-up warnings").doesNotContain("warning");
        assertThat(TableComparer.compare(STORE, "nscopysource", STORE, "nscopycopy").equal()).isTrue();

        // The cluster's scan is untouched: its root item not consumed, nothing parked, no destination written.
        assertThat(STORE.tableExists("nsclustercopy")).isFalse();
        assertThat(deadLetters(KAFKA, scanId)).isZero();
        TopicPartition rootAt = new TopicPartition(root.topic(), root.partition());
        try (Admin admin = Admin.create(KAFKA.admin())) {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets("tablescan-discovery")
                    .partitionsToOffsetAndMetadata().get().get(rootAt);
            assertThat(committed == null ? 0 : committed.offset()).as("discovery's position on " + rootAt)
                    .isLessThanOrEqualTo(root.offset());
            // The copy's private topics and groups are gone.
            assertThat(admin.listTopics().names().get()).noneMatch(t -> t.startsWith("tablescan-copy-"));
            assertThat(admin.listGroups().all().get()).extracting(GroupListing::groupId)
                    .noneMatch(g -> g.startsWith("tablescan-copy-"));
        }

        // The cluster's workers, started later in the default namespace, finish it exactly.
        try (LocalPipeline pipeline = LocalPipeline.start(clusterWorkers(KAFKA))) {
            LedgerIT.assertExact(ScanAwait.ended(KAFKA, scanId, Duration.ofMinutes(3)), 3_000, "nsclustersource",
                    "nsclustercopy");

            // While they run, another copy's items reach none of them (they have no alias 'source' to park it for).
            long parked = records(KAFKA, KAFKA.namespace().deadLetters());
            Cli.Run again = Cli.run("copy", "--kafka", BOOTSTRAP, "--source-connection-string",
                    LocalServices.azurite().connectionString(), "--source-table", "nscopysource", "--dest-table",
                    "nscopyagain", "--page-size", "200");
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(TableComparer.compare(STORE, "nscopysource", STORE, "nscopyagain").equal()).isTrue();
            assertThat(records(KAFKA, KAFKA.namespace().deadLetters())).as("items parked by the cluster's workers")
                    .isEqualTo(parked);
        }
    }

    /**
     * A scan whose topic refuses every row (its max.message.bytes is below a row's record) and another scan on the
     * same copy-workers: the refused records' items are parked in the dead-letter topic with the reason and that
     * scan ends with failures, while the other completes exactly. The workers used to abort and replay their
     * transaction forever, and every scan they served stood still.
     */
    @Test
    void aTopicThatRefusesTheRowsParksItsScansItemsWhileAnotherScanOnTheSameWorkersCompletes() throws Exception {
        SampleTable.write(STORE, "nsrefusedsource", SampleTable.rows(600), 8);
        SampleTable.write(STORE, "nsbesidesource", SampleTable.rows(1_500), 8);
        KafkaSettings team = KAFKA.withNamespace(Namespace.of("nsit-team-r"));
        String topic = "nsit-small-rows";
        try (Admin admin = Admin.create(KAFKA.admin())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Map.of("max.message.bytes", "100"))))
                    .all().get();
        }
        ScanSpec refused = ScanSpecs.copy().from(new TableRef("src", "nsrefusedsource")).pageSize(100)
                .sink(new SinkRef("topic", null, topic, Map.of())).build();
        ScanSpec beside = LedgerIT.spec("nsbesidesource", "nsbesidecopy", 100);
        try (LocalPipeline pipeline = LocalPipeline.start(clusterWorkers(team))) {
            ScanStarter.start(team, refused);
            ScanStarter.start(team, beside);

            ScanTotals other = ScanAwait.ended(team, beside.getScanId(), Duration.ofMinutes(2));
            assertThat(other.state()).isEqualTo(ScanState.COMPLETED);
            assertThat(other.rowsWritten()).isEqualTo(1_500);
            RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
            assertThat(TableComparer.compare(rest, "nsbesidesource", rest, "nsbesidecopy").equal()).isTrue();

            ScanTotals parked = ScanAwait.ended(team, refused.getScanId(), Duration.ofMinutes(2));
            assertThat(parked.state()).isEqualTo(ScanState.COMPLETED_WITH_FAILURES);
            assertThat(parked.rowsRead()).isEqualTo(600);
            assertThat(parked.rowsWritten()).isZero();
            assertThat(parked.itemsFailed()).isPositive();
            assertThat(parked.errors()).anyMatch(e -> e.contains("topic " + topic + " refused a record")
                    && e.contains("max.message.bytes"));
            assertThat(deadLetters(team, refused.getScanId())).as("items parked").isEqualTo(parked.itemsFailed());
        }
        assertThat(records(KAFKA, topic)).as("records a read_committed reader sees").isZero();
    }

    static long records(KafkaSettings kafka, String topic) {
        long[] count = {0};
        readAll(kafka, topic, r -> count[0]++);
        return count[0];
    }

    @Test
    void deploymentsWithDifferentNamespacesOnOneClusterNeverSeeEachOthersScans() throws Exception {
        SampleTable.write(STORE, "nsteamasource", SampleTable.rows(1_500), 8);
        SampleTable.write(STORE, "nsteambsource", SampleTable.rows(2_500).subList(500, 2_500), 8);
        KafkaSettings teamA = KAFKA.withNamespace(Namespace.of("nsit-team-a"));
        KafkaSettings teamB = KAFKA.withNamespace(Namespace.of("nsit-team-b"));
        ScanSpec a = LedgerIT.spec("nsteamasource", "nsteamacopy", 200);
        ScanSpec b = LedgerIT.spec("nsteambsource", "nsteambcopy", 200);
        try (Admin admin = Admin.create(KAFKA.admin())) {
            Topics.ensure(admin, teamB.namespace(), Topics.LOCAL_PARTITIONS, Optional.empty(), Duration.ofSeconds(60));
        }
        ScanStarter.start(teamB, b); // team B's workers are not running yet

        // Team A's workers, with credentials for the same aliases, run A's scan and never touch B's.
        try (LocalPipeline pipeline = LocalPipeline.start(clusterWorkers(teamA))) {
            ScanStarter.start(teamA, a);
            LedgerIT.assertExact(ScanAwait.ended(teamA, a.getScanId(), Duration.ofMinutes(3)), 1_500, "nsteamasource",
                    "nsteamacopy");
        }
        assertThat(STORE.tableExists("nsteambcopy")).isFalse();
        assertThat(deadLetters(teamB, b.getScanId())).isZero();
        rootItem(teamB, b.getScanId()); // still where it was seeded, for B's workers

        // A folder of its own per run: a child's log is appended to.
        try (ChildProcesses cli = new ChildProcesses("namespace-it-" + java.util.UUID.randomUUID())) {
            // The commands read TABLESCAN_NAMESPACE like the workers do.
            String statusA = exited(cli, "status-a", Map.of(Namespace.VARIABLE, "nsit-team-a"), 0,
                    "status", "--kafka", BOOTSTRAP);
            assertThat(statusA).contains(a.getScanId()).doesNotContain(b.getScanId());
            // A mistake in it is one line and exit 2, for a command and for a worker alike.
            for (String[] args : List.of(new String[] {"status", "--kafka", BOOTSTRAP}, new String[] {"worker", "copy"})) {
                String out = exited(cli, "bad-" + args[0], Map.of(Namespace.VARIABLE, "team b",
                        "KAFKA_BOOTSTRAP_SERVERS", BOOTSTRAP), 2, args);
                assertThat(out).contains("TABLESCAN_NAMESPACE must be").doesNotContain("\tat ");
                assertThat(out.lines().filter(l -> l.startsWith("tablescan")).count()).as(out).isEqualTo(1);
            }
        }

        try (LocalPipeline pipeline = LocalPipeline.start(clusterWorkers(teamB))) {
            LedgerIT.assertExact(ScanAwait.ended(teamB, b.getScanId(), Duration.ofMinutes(3)), 2_000, "nsteambsource",
                    "nsteambcopy");
        }
        try (ScanStatusReader readerA = new ScanStatusReader(teamA); ScanStatusReader readerB = new ScanStatusReader(teamB)) {
            assertThat(readerA.all()).extracting(ScanTotals::scanId).contains(a.getScanId()).doesNotContain(b.getScanId());
            assertThat(readerB.all()).extracting(ScanTotals::scanId).contains(b.getScanId()).doesNotContain(a.getScanId());
        }
    }

    /** Runs a command to its end (within a deadline) and returns its output, asserting its exit code. */
    static String exited(ChildProcesses cli, String label, Map<String, String> env, int exitCode, String... args)
            throws InterruptedException {
        Process process = cli.start(label, env, args);
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as(label + " ended").isTrue();
        String out = cli.output(label);
        assertThat(process.exitValue()).as(out).isEqualTo(exitCode);
        return out;
    }

    /** The root item of a scan, found in the namespace's prefix-queries topic. */
    /**
     * The scan's seed, once a read_committed reader sees it: a transaction's commit returns before its markers
     * are written, so right after {@code start} the seed can still be above the partitions' last stable offsets.
     */
    static ConsumerRecord<byte[], byte[]> rootItem(KafkaSettings kafka, String scanId) {
        List<List<ConsumerRecord<byte[], byte[]>>> found = new ArrayList<>(List.of(List.of()));
        FreePorts.await(() -> {
            found.set(0, roots(kafka, scanId));
            return !found.get(0).isEmpty();
        }, Duration.ofSeconds(30), () -> true);
        assertThat(found.get(0)).as("root items of " + scanId).hasSize(1);
        return found.get(0).get(0);
    }

    static List<ConsumerRecord<byte[], byte[]>> roots(KafkaSettings kafka, String scanId) {
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        Deserializer<SpecificRecord> deserializer = kafka.valueDeserializer();
        readAll(kafka, kafka.namespace().prefixQueries(), r -> {
            try {
                if (deserializer.deserialize(r.topic(), r.value()) instanceof PrefixQuery q
                        && q.getSpec().getScanId().equals(scanId)) {
                    found.add(r);
                }
            } catch (RuntimeException e) {
                // another test's poison record
            }
        });
        return found;
    }

    static long deadLetters(KafkaSettings kafka, String scanId) {
        long[] count = {0};
        readAll(kafka, kafka.namespace().deadLetters(), r -> {
            if (scanId.equals(DeadLetters.header(r.headers(), DeadLetters.SCAN_ID))) {
                count[0]++;
            }
        });
        return count[0];
    }

    static void readAll(KafkaSettings kafka, String topic, java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kafka.reader())) {
            List<TopicPartition> partitions = Topics.partitions(consumer, topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Topics.readToEnd(consumer, consumer.endOffsets(partitions), each);
        }
    }
}
