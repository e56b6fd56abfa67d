package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.azure.RestTableReader;
import io.tablescan.azure.RowJson;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.local.AzuriteServer;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.Row;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A scan that names a sink other than a table, through a real embedded KRaft broker and Azurite with the
 * three workers in this JVM: the copy-worker finds the test-only {@link CountSink} by its type alone; and the
 * built-in topic sink, from the command line.
 */
class SinkIT {
    static final TableStore STORE = LocalServices.store();
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aScanNamingTheCountSinkCountsEveryRowExactlyOnce() {
        List<Row> rows = new ArrayList<>(SampleTable.rows(2_000));
        Random random = new Random(11);
        for (int i = 0; i < 1_500; i++) {
            rows.add(SampleTable.row("big", String.format("%05d", i), random)); // handed off as partition queries
        }
        SampleTable.write(STORE, "countsource", rows, 8);
        ScanSpec spec = ScanSpec.newBuilder(ScanSpecs.copy().from(new TableRef("azurite", "countsource"))
                .pageSize(200).strategy(ScanStrategy.PREFIX).build())
                .setSink(SinkRefs.toWire(new SinkRef("count", null, "countsource-tally", Map.of("note", "test"))))
                .build();

        CopyRun.Outcome outcome = CopyRun.run(CopyRun.settings(KafkaSettings.of(LocalServices.broker().bootstrapServers()),
                new Accounts(name -> null).register("azurite", STORE), System.getenv()), spec,
                RunOptions.defaults().withTimeout(Duration.ofMinutes(5)));

        ScanTotals totals = outcome.totals();
        assertThat(totals.complete()).as("scan complete").isTrue();
        assertThat(totals.itemsFailed()).isZero();
        assertThat(totals.itemsDone()).isEqualTo(totals.itemsEmitted());
        assertThat(totals.rowsRead()).isEqualTo(rows.size());
        assertThat(totals.rowsWritten()).as("the ledger's rows written").isEqualTo(rows.size());
        Map<String, AtomicInteger> counts = CountSink.counts("countsource-tally");
        assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(
                rows.stream().map(r -> CountSink.key(r.partitionKey(), r.rowKey())).toList());
        assertThat(counts.values()).as("every row counted once").allSatisfy(n -> assertThat(n).hasValue(1));
        assertThat(CountSink.prepares("countsource-tally")).as("one sink, prepared once").isEqualTo(1);
    }

    /** A sink whose commit point never succeeds: its items are parked with the reason, and the scan ends. */
    @Test
    void aCommitPointThatAlwaysFailsParksTheItemsAndTheScanEnds() {
        SampleTable.write(STORE, "brokenflushsource", SampleTable.rows(300), 8);
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("azurite", "brokenflushsource")).pageSize(100)
                .sink(new SinkRef("buffering", "azurite", "brokenflushcopy", Map.of("fail-flushes", "1000000"))).build();

        CopyRun.Outcome outcome = CopyRun.run(CopyRun.settings(KafkaSettings.of(LocalServices.broker().bootstrapServers()),
                new Accounts(name -> null).register("azurite", STORE), System.getenv()), spec,
                RunOptions.defaults().withTimeout(Duration.ofMinutes(3)));

        ScanTotals totals = outcome.totals();
        assertThat(totals.ended()).as("the scan ends instead of replaying forever").isTrue();
        assertThat(totals.state()).isEqualTo(io.tablescan.schema.ScanState.COMPLETED_WITH_FAILURES);
        assertThat(totals.itemsFailed()).isPositive();
        assertThat(totals.rowsWritten()).as("no row of a parked item counted").isZero();
        assertThat(totals.errors()).anyMatch(error -> error.contains("flush refused by the test"));
    }

    /**
     * A sink that writes only at its commit point, whose first flushes fail for good (dropping what they held):
     * the items of those transactions are not committed but replayed, so the copy is exact all the same.
     */
    @Test
    void aBufferingSinksFailedCommitPointsReplayTheirItemsAndItsCopyIsExact() {
        List<Row> rows = SampleTable.rows(2_000);
        SampleTable.write(STORE, "buffersource", rows, 8);
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("azurite", "buffersource")).pageSize(100)
                .sink(new SinkRef("buffering", "azurite", "buffercopy", Map.of("fail-flushes", "3"))).build();

        CopyRun.Outcome outcome = CopyRun.run(CopyRun.settings(KafkaSettings.of(LocalServices.broker().bootstrapServers()),
                new Accounts(name -> null).register("azurite", STORE), System.getenv()), spec,
                RunOptions.defaults().withTimeout(Duration.ofMinutes(5)));

        ScanTotals totals = outcome.totals();
        assertThat(totals.complete()).as("scan complete").isTrue();
        assertThat(totals.itemsFailed()).isZero();
        assertThat(totals.rowsWritten()).as("each row counted once").isEqualTo(rows.size());
        assertThat(BufferingSink.failedFlushes("buffercopy")).isGreaterThanOrEqualTo(3);
        assertThat(BufferingSink.given("buffercopy")).as("the dropped rows given again").isGreaterThan(rows.size());
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        TableComparer.Result check = TableComparer.compare(rest, "buffersource", rest, "buffercopy");
        assertThat(check.examples()).isEmpty();
        assertThat(check.destinationRows()).isEqualTo(rows.size());
    }

    @Test
    void copyToATopicPublishesEveryRowOnceAsItsJsonWithTheScanIdAndTheTopicCreated() {
        SampleTable.write(STORE, "topicrows", SampleTable.rows(1_000), 8);
        String kafka = LocalServices.broker().bootstrapServers();

        Cli.Run run = Cli.run("copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "topicrows", "--to-topic", "topic-rows-it", "--kafka", kafka, "--page-size", "100");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("topicrows -> topic topic-rows-it").contains("rows written:  1,000");
        List<String> keys = new ArrayList<>();
        Map<String, Object> config = Map.of("bootstrap.servers", kafka, "isolation.level", "read_committed");
        try (var consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = Topics.partitions(consumer, "topic-rows-it");
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Topics.readToEnd(consumer, consumer.endOffsets(partitions), record -> {
                Row row = RowJson.parse(record.value());
                assertThat(new String(record.key(), StandardCharsets.UTF_8))
                        .isEqualTo("[\"" + row.partitionKey() + "\",\"" + row.rowKey() + "\"]");
                assertThat(DeadLetters.header(record.headers(), "scanId")).startsWith("scan-");
                keys.add(row.partitionKey() + "|" + row.rowKey());
            });
        }
        assertThat(keys).hasSize(1_000).doesNotHaveDuplicates();
    }

    /**
     * The same from a consumer that is not Java: KafkaJS (tools/azurite/topic-reader.mjs), read_committed, which
     * has no LZ4 codec: the topic's default compression (gzip) is one it reads.
     */
    @Test
    void kafkaJsReadsEveryRowOfATopicOnceWithTheDefaultCompression() throws Exception {
        List<Row> source = SampleTable.rows(600);
        SampleTable.write(STORE, "topicrowsjs", source, 8);
        String kafka = LocalServices.broker().bootstrapServers();
        Cli.Run run = Cli.run("copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "topicrowsjs", "--to-topic", "topic-rows-js", "--kafka", kafka, "--page-size", "100");
        assertThat(run.exitCode()).as(run.err()).isZero();

        Path out = Files.createTempFile("topic-reader", ".out");
        try {
            Process reader = new ProcessBuilder("node", AzuriteServer.toolsFolder().resolve("topic-reader.mjs").toString(),
                    kafka, "topic-rows-js").redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            assertThat(reader.waitFor(150, TimeUnit.SECONDS)).as("topic-reader finished").isTrue();
            assertThat(reader.exitValue()).as("topic-reader exit code").isZero();
            Map<String, Row> read = new java.util.HashMap<>();
            for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                JsonNode record = JSON.readTree(line);
                Row row = RowJson.parse(record.get("value").asText().getBytes(StandardCharsets.UTF_8));
                assertThat(record.get("key").asText()).isEqualTo("[\"" + row.partitionKey() + "\",\"" + row.rowKey() + "\"]");
                assertThat(record.get("scanId").asText()).startsWith("scan-");
                assertThat(read.put(row.partitionKey() + "|" + row.rowKey(), row)).as("read once").isNull();
            }
            assertThat(read).hasSize(source.size());
            for (Row expected : List.of(source.getFirst(), source.get(299), source.getLast())) {
                Row got = read.get(expected.partitionKey() + "|" + expected.rowKey());
                assertThat(got.properties()).as("its properties, types and values")
                        .containsAll(expected.properties().stream().filter(p -> !p.name().equals("Timestamp")).toList());
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * KafkaJS's reader ends a partition whose last transaction's commit marker comes in a fetch of its own: a record
     * larger than a fetch's bytes per partition fills one fetch, so the marker behind it comes alone.
     */
    @Test
    void kafkaJsEndsAPartitionWhoseCommitMarkerComesInAFetchOfItsOwn() throws Exception {
        String kafka = LocalServices.broker().bootstrapServers();
        String topic = "topic-reader-marker";
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", kafka))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1)
                    .configs(Map.of("max.message.bytes", "3000000")))).all().get();
        }
        StringBuilder value = new StringBuilder();
        Random random = new Random(5);
        while (value.length() < 1_500_000) { // over KafkaJS's 1 MB per partition and fetch, uncompressed
            value.append((char) ('a' + random.nextInt(26)));
        }
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(Map.of(
                "bootstrap.servers", kafka, "transactional.id", "marker-" + System.nanoTime(),
                "max.request.size", "3000000", "compression.type", "none",
                "key.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName(),
                "value.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName()))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, "big", value.toString()));
            producer.commitTransaction();
        }
        Path out = Files.createTempFile("topic-reader", ".out");
        try {
            Process reader = new ProcessBuilder("node", AzuriteServer.toolsFolder().resolve("topic-reader.mjs").toString(),
                    kafka, topic).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            assertThat(reader.waitFor(150, TimeUnit.SECONDS)).as("topic-reader finished").isTrue();
            assertThat(reader.exitValue()).as("topic-reader exit code").isZero();
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            assertThat(lines).hasSize(1);
            assertThat(JSON.readTree(lines.getFirst()).get("value").asText()).isEqualTo(value.toString());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** A user's topic keeps its own compression.type, unless --topic-compression asks for another. */
    @Test
    void anExistingTopicKeepsItsCompressionUnlessOneIsAskedFor() throws Exception {
        SampleTable.write(STORE, "topicrowskept", SampleTable.rows(50), 8);
        String kafka = LocalServices.broker().bootstrapServers();
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", kafka))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("topic-rows-kept", 2, (short) 1)
                    .configs(Map.of("compression.type", "zstd")))).all().get();
            String[] copy = {"copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "topicrowskept", "--to-topic", "topic-rows-kept", "--kafka", kafka};
            Cli.Run run = Cli.run(copy);
            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            assertThat(compression(admin, "topic-rows-kept")).isEqualTo("zstd");

            run = Cli.run(SelectionIT.with(copy, "--topic-compression", "gzip"));
            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            assertThat(compression(admin, "topic-rows-kept")).isEqualTo("gzip");
        }
    }

    private static String compression(org.apache.kafka.clients.admin.Admin admin, String topic) throws Exception {
        var resource = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get().get(resource).get("compression.type").value();
    }

    /**
     * Some writes of a page refused for good (a third of the partitions): the rows the destination holds are the
     * rows the scan counts as written, each once, and the refused ones are parked as failed items.
     */
    @Test
    void whenSomeWritesOfAPageAreRefusedTheRowsWrittenAreTheRowsTheDestinationHolds() {
        List<Row> rows = SampleTable.rows(1_500);
        SampleTable.write(STORE, "partialsource", rows, 8);
        java.util.function.Predicate<String> refused = pk -> Math.floorMod(pk.hashCode(), 3) == 0;
        TableStore refusing = new TableStore() {
            @Override
            public io.tablescan.spi.Page query(String table, io.tablescan.spi.ScanQuery query,
                    io.tablescan.spi.QueryOptions options, io.tablescan.spi.Continuation from) {
                return STORE.query(table, query, options, from);
            }

            @Override
            public void upsert(String table, String partitionKey, List<Row> batch) {
                if (refused.test(partitionKey)) {
                    throw new io.tablescan.spi.TableStoreException("HTTP 403 AuthorizationPermissionMismatch", 403,
                            false, null);
                }
                STORE.upsert(table, partitionKey, batch);
            }

            @Override
            public void createTableIfNotExists(String table) {
                STORE.createTableIfNotExists(table);
            }

            @Override
            public boolean tableExists(String table) {
                return STORE.tableExists(table);
            }
        };
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("azurite", "partialsource"))
                .to(new TableRef("refusing", "partialcopy")).pageSize(200).strategy(ScanStrategy.PREFIX).build();

        CopyRun.Outcome outcome = CopyRun.run(CopyRun.settings(KafkaSettings.of(LocalServices.broker().bootstrapServers()),
                new Accounts(name -> null).register("azurite", STORE).register("refusing", refusing), System.getenv()), spec,
                RunOptions.defaults().withTimeout(Duration.ofMinutes(5)));

        ScanTotals totals = outcome.totals();
        long expected = rows.stream().filter(r -> !refused.test(r.partitionKey())).count();
        assertThat(expected).isBetween(1L, (long) rows.size() - 1);
        assertThat(totals.itemsFailed()).as("the refused writes parked").isPositive();
        TableComparer.Result held = TableComparer.compare(STORE, "partialsource", STORE, "partialcopy");
        assertThat(held.destinationRows()).as("rows the destination holds").isEqualTo(expected);
        assertThat(totals.rowsWritten()).as("the scan's rows written").isEqualTo(expected);
    }
}
