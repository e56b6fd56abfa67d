package io.tablescan.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.azure.RowJson;
import io.tablescan.azure.RestTableReader.WireRow;
import io.tablescan.azure.RestTableReader.WireValue;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanTotals;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Crashes: `tablescan broker`, a ledger and two processes of every worker kind; instances are killed with
 * SIGKILL at random moments during a 50,000-row copy, or a scan publishing 20,324 rows to a topic, and restarted.
 * Nothing may be lost or counted twice, and a read_committed consumer reads each published row once.
 */
class CrashIT {
    static final List<String> KINDS = List.of("discovery", "partition", "copy");

    /** A broker, a ledger and two processes of every worker kind, each worker restartable after a SIGKILL. */
    static final class Cluster implements AutoCloseable {
        final ChildProcesses children;
        final KafkaSettings kafka;
        final Map<String, String> env;
        final Map<String, Process> workers = new HashMap<>();

        Cluster(String name) throws Exception {
            this(name, 2);
        }

        /** With {@code each} processes of every worker kind. */
        Cluster(String name, int each) throws Exception {
            this(name, each, Map.of());
        }

        /** As above, with {@code extra} in every process's environment (account aliases, say). */
        Cluster(String name, int each, Map<String, String> extra) throws Exception {
            children = new ChildProcesses(name);
            int port = FreePorts.find();
            kafka = KafkaSettings.of("127.0.0.1:" + port);
            Process broker = children.start("broker", Map.of(), "broker", "--port", Integer.toString(port), "--dir",
                    Files.createTempDirectory("tablescan-broker-").toString());
            assertThat(FreePorts.await(() -> FreePorts.accepts(port), Duration.ofSeconds(60), broker::isAlive)).isTrue();
            Map<String, String> all = new HashMap<>(extra);
            all.putAll(Map.of("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + port,
                    "TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                    "TABLESCAN_TOPIC_PARTITIONS", "6"));
            env = Map.copyOf(all);
            for (String kind : KINDS) {
                for (int i = 1; i <= each; i++) {
                    workers.put(kind + "-" + i, children.start(kind + "-" + i, env, "worker", kind));
                }
            }
            Process ledger = children.start("ledger", env, "ledger");
            try (Admin admin = Admin.create(kafka.admin())) {
                assertThat(FreePorts.await(() -> topicsExist(admin), Duration.ofSeconds(90), () -> true)).isTrue();
                // A ledger that gets its partitions after a short scan has run folds it all at once, and its first
                // status with progress is already the ended one: then no worker could be killed mid-scan.
                boolean assigned = FreePorts.await(() -> ledgerAssigned(admin), Duration.ofSeconds(90), ledger::isAlive);
                assertThat(assigned).as("the ledger has its partitions (its process alive: %s)", ledger.isAlive())
                        .isTrue();
            }
        }

        /**
         * Kills a random instance each time the scan has moved on by {@code step} rows written, then restarts it,
         * up to {@code most} times (every kind at least once when the scan lasts); returns once the scan ended.
         */
        List<String> killDuring(String scanId, int most, long step) throws Exception {
            return killDuring(scanId, most, step, ScanTotals::rowsWritten);
        }

        /** As above, the scan's progress measured by {@code progress} (rows read, for a scan that writes none). */
        List<String> killDuring(String scanId, int most, long step, java.util.function.ToLongFunction<ScanTotals> progress)
                throws Exception {
            return killDuring(scanId, most, step, progress, KINDS);
        }

        /** As above, the kinds killed first in the order given (a kind the test is about first: a scan may end early). */
        List<String> killDuring(String scanId, int most, long step, java.util.function.ToLongFunction<ScanTotals> progress,
                List<String> order) throws Exception {
            Random random = new Random(5);
            List<String> kills = new ArrayList<>();
            ScanTotals t = ScanAwait.until(kafka, scanId, s -> progress.applyAsLong(s) > 0, Duration.ofMinutes(2));
            while (!t.ended() && kills.size() < most) {
                List<String> names = new ArrayList<>(workers.keySet());
                String victim = kills.size() < order.size() ? order.get(kills.size()) + "-" + (1 + random.nextInt(2))
                        : names.get(random.nextInt(names.size())); // every kind is killed at least once
                Process process = workers.get(victim);
                process.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful leave, an open transaction
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                kills.add(victim + " at " + progress.applyAsLong(t) + " rows");
                workers.put(victim, children.start(victim, env, "worker", victim.substring(0, victim.indexOf('-'))));
                long rows = progress.applyAsLong(t);
                t = ScanAwait.until(kafka, scanId, s -> s.ended() || progress.applyAsLong(s) > rows + step,
                        Duration.ofMinutes(2));
            }
            System.out.println("kills survived: " + kills.size() + " " + kills);
            return kills;
        }

        @Override
        public void close() {
            children.close();
        }
    }

    @Test
    void workersKilledWithSigkillMidCopyLoseNothing() throws Exception {
        var store = LocalServices.store();
        SampleTable.write(store, "crashsource", SampleTable.rows(50_000), 16);
        try (Cluster cluster = new Cluster("crashes")) {
            var spec = ScanSpecs.copy().from(new TableRef("emulator", "crashsource"))
                    .to(new TableRef("emulator", "crashcopy")).pageSize(200).strategy(ScanStrategy.PREFIX).build();
            ScanStarter.start(cluster.kafka, spec);

            List<String> kills = cluster.killDuring(spec.getScanId(), 6, 4_000);
            ScanTotals t = ScanAwait.ended(cluster.kafka, spec.getScanId(), Duration.ofMinutes(6));

            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(kills).hasSizeGreaterThanOrEqualTo(3);
            assertThat(t.rowsRead()).isEqualTo(50_000);
            assertThat(t.rowsWritten()).isEqualTo(50_000);
            assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
            TableComparer.Result check = TableComparer.compare(store, "crashsource", store, "crashcopy");
            assertThat(check.examples()).isEmpty();
            assertThat(check.equal()).isTrue();
        }
    }

    /**
     * A sink that holds its rows in memory until its commit point (test-only {@link BufferingSink}): a worker
     * killed loses what it held, but not a row of an item it committed, and the others are replayed.
     */
    @Test
    void aSinkThatWritesOnlyAtItsCommitPointLosesNothingToSigkills() throws Exception {
        SampleTable.write(LocalServices.store(), "buffercrashsource", SampleTable.rows(30_000), 16);
        try (Cluster cluster = new Cluster("buffering-crashes")) {
            var spec = ScanSpecs.copy().from(new TableRef("emulator", "buffercrashsource"))
                    .sink(new SinkRef("buffering", "emulator", "buffercrashcopy", Map.of())).pageSize(200).build();
            ScanStarter.start(cluster.kafka, spec);

            // The copy-worker, which holds the sink's unflushed rows, is killed first: on a busy machine the scan
            // can end before a third kill.
            List<String> kills = cluster.killDuring(spec.getScanId(), 4, 2_000, ScanTotals::rowsWritten,
                    List.of("copy", "partition", "discovery"));
            ScanTotals t = ScanAwait.ended(cluster.kafka, spec.getScanId(), Duration.ofMinutes(6));

            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsWritten()).isEqualTo(30_000);
            assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
            RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
            TableComparer.Result check = TableComparer.compare(rest, "buffercrashsource", rest, "buffercrashcopy");
            assertThat(check.examples()).isEmpty();
            assertThat(check.destinationRows()).isEqualTo(30_000);
            assertThat(kills).as("a copy-worker killed").anyMatch(kill -> kill.startsWith("copy-"));
        }
    }

    @Test
    void rowsPublishedToATopicWithSigkillsArriveExactlyOnceForReadCommittedConsumers() throws Exception {
        var store = LocalServices.store();
        List<Row> rows = new ArrayList<>(SampleTable.rows(20_000));
        for (String pk : OddKeys.KEYS) {
            for (String rk : OddKeys.KEYS) {
                rows.add(new Row(pk, rk, List.of(new RowProperty("V", EdmType.STRING, pk + "/" + rk))));
            }
        }
        SampleTable.write(store, "topicsource", rows, 16);
        try (Cluster cluster = new Cluster("topic-crashes")) {
            var spec = ScanSpecs.copy().from(new TableRef("emulator", "topicsource"))
                    .sink(new SinkRef("topic", null, "table-rows", Map.of())).pageSize(200).build();
            ScanStarter.start(cluster.kafka, spec);

            List<String> kills = cluster.killDuring(spec.getScanId(), 4, 3_000);
            ScanTotals t = ScanAwait.ended(cluster.kafka, spec.getScanId(), Duration.ofMinutes(6));

            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(kills).hasSizeGreaterThanOrEqualTo(3);
            assertThat(t.rowsWritten()).isEqualTo(rows.size());
            // A plain read_committed consumer, and the rows read back by a JSON parser of the test's own.
            Map<String, WireRow> published = new HashMap<>();
            int records = 0;
            Map<String, Object> config = new HashMap<>(Map.of("bootstrap.servers", cluster.kafka.bootstrapServers(),
                    "isolation.level", "read_committed", "max.partition.fetch.bytes", "9000000"));
            try (var consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = Topics.partitions(consumer, "table-rows");
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
                Topics.readToEnd(consumer, consumer.endOffsets(partitions), all::add);
                for (ConsumerRecord<byte[], byte[]> record : all) {
                    records++;
                    assertThat(DeadLetters.header(record.headers(), "scanId")).isEqualTo(spec.getScanId());
                    WireRow row = RestTableReader.parse(("{\"value\":[" + new String(record.value(), UTF_8) + "]}")
                            .getBytes(UTF_8)).getFirst();
                    String key = new String(record.key(), UTF_8);
                    assertThat(key).isEqualTo(keysJson(row.partitionKey(), row.rowKey()));
                    published.put(key, row);
                }
            }
            assertThat(records).as("each row once").isEqualTo(rows.size());
            assertThat(published).hasSize(rows.size());
            // Each value exactly as the service itself sends it (raw REST), doubles compared as the doubles they name.
            Iterator<WireRow> source = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString())
                    .rows("topicsource");
            int compared = 0;
            while (source.hasNext()) {
                WireRow expected = source.next();
                assertThat(normalized(published.get(keysJson(expected.partitionKey(), expected.rowKey()))))
                        .isEqualTo(normalized(expected));
                compared++;
            }
            assertThat(compared).isEqualTo(rows.size());
        }
    }

    private static String keysJson(String partitionKey, String rowKey) {
        return new String(RowJson.keysJson(new Row(partitionKey, rowKey, List.of())), UTF_8);
    }

    /** A row with each Double's text as Java's form of the double it names (1E1 and 10.0 name the same). */
    private static WireRow normalized(WireRow row) {
        Map<String, WireValue> values = new TreeMap<>();
        row.properties().forEach((name, v) -> values.put(name, v.type().equals("Edm.Double")
                ? new WireValue(v.type(), Double.toString(Double.parseDouble(v.text()))) : v));
        return new WireRow(row.partitionKey(), row.rowKey(), values);
    }

    private static boolean ledgerAssigned(Admin admin) {
        try {
            var group = admin.describeConsumerGroups(List.of(Namespace.DEFAULT.ledger())).all()
                    .get(10, TimeUnit.SECONDS).get(Namespace.DEFAULT.ledger());
            return group.groupState() == GroupState.STABLE
                    && group.members().stream().anyMatch(m -> !m.assignment().topicPartitions().isEmpty());
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean topicsExist(Admin admin) {
        try {
            return admin.listTopics().names().get().containsAll(Namespace.DEFAULT.topics());
        } catch (Exception e) {
            return false;
        }
    }
}
