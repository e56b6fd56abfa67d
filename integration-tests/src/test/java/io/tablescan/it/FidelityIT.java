package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.Cli;
import io.tablescan.cli.UserError;
import io.tablescan.local.AzuriteServer;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.Topics;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every value exact as another client reads it. The source is written by Microsoft's JavaScript SDK (every
 * EDM type, the edge values of each, odd keys), copied by {@code tablescan copy}, then both tables are read
 * by the JavaScript SDK with {@code disableTypeConversion} and as raw response JSON, and compared as text.
 * Reading back through the Java SDK that wrote the copy would hide a value altered on the wire (a DateTime
 * with 9 fraction digits parses to the same instant).
 */
class FidelityIT {
    private static final String SOURCE = "fidelitysource";

    @BeforeAll
    static void fill() throws Exception {
        String out = client("fill", SOURCE);
        assertThat(out).contains("filled " + SOURCE);
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 3})
    void aCopyReadsBackThroughAnotherClientIdenticalToItsSource(int pageSize) throws Exception {
        String copy = "fidelitycopy" + pageSize;
        Cli.Run run = Cli.run("copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", SOURCE, "--dest-table", copy, "--page-size", Integer.toString(pageSize));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();

        List<String> source = client("dump", SOURCE).lines().toList();
        List<String> copied = client("dump", copy).lines().toList();
        assertThat(source).hasSize(67);
        // The dump is what we think it is: DateTimes with 7 digits, doubles as typed numbers, Int64 as text.
        assertThat(String.join("\n", source)).contains("[\"Edm.DateTime\",\"2013-01-10T08:10:28.0000558Z\"]")
                .contains("[\"Edm.DateTime\",\"9999-12-31T23:59:59.9999999Z\"]")
                .contains("[\"Edm.Int64\",\"-9223372036854775808\"]").contains("[\"Edm.Double\",\"NaN\"]")
                .contains("[\"Double\",\"5e-324\"]").contains("\"pk\":\"a\uFFFF\"");
        for (int i = 0; i < source.size(); i++) {
            assertThat(copied.get(i)).as("row %d", i).isEqualTo(source.get(i));
        }
        assertThat(copied).hasSameSizeAs(source);
    }

    /** The demo's verifier reads plain REST: a DateTime in another form is a difference, as for other clients. */
    @Test
    void theRestVerifierSeesADateTimeTheSdkWouldReadAsEqual() throws Exception {
        Cli.Run run = Cli.run("copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", SOURCE, "--dest-table", "fidelityaltered");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        assertThat(TableComparer.compare(rest, SOURCE, rest, "fidelityaltered").equal()).isTrue();

        // The first row's When, as the Java SDK writes an OffsetDateTime: 9 fraction digits, the same instant.
        String first = client("dump", SOURCE).lines().findFirst().orElseThrow();
        assertThat(first).contains("\"When\":[\"DateTime\",\"1601-01-01T00:00:00.0000000Z\"]");
        String rowKey = first.replaceAll(".*\"rk\":\"([^\"]*)\".*", "$1");
        client("put", "fidelityaltered", "{\"partitionKey\":\"\",\"rowKey\":\"" + rowKey + "\",\"When\":"
                + "{\"value\":\"1601-01-01T00:00:00.000000000Z\",\"type\":\"DateTime\"}}");

        TableComparer.Result check = TableComparer.compare(rest, SOURCE, rest, "fidelityaltered");
        assertThat(check.differences()).isEqualTo(1);
        assertThat(check.examples().getFirst()).contains("When: Edm.DateTime '1601-01-01T00:00:00.0000000Z' in the"
                + " source, Edm.DateTime '1601-01-01T00:00:00.000000000Z' in the destination");
    }

    /**
     * Values another client wrote in a text that is not the canonical one (a DateTime without 7 fraction digits, an
     * upper-case Guid, an Int64 with leading zeros) are values to every client: verify tells them apart, a mirror
     * restores them, and the rows sent to a topic carry them as the service sent them.
     */
    @Test
    void valuesInAnotherTextThanTheCanonicalOneAreKeptComparedAndMirroredAsTheyAre() throws Exception {
        String cs = LocalServices.azurite().connectionString();
        String source = client("dump", SOURCE);
        assertThat(source).contains("\"Other\":[\"Edm.DateTime\",\"1601-01-01T00:00:00Z\"]")
                .contains("\"OtherId\":[\"Edm.Guid\",\"C9DA6455-213D-42C9-9A79-3E9149A57833\"]")
                .contains("\"OtherBig\":[\"Edm.Int64\",\"0042\"]");
        Cli.Run copy = Cli.run("copy", "--source-connection-string", cs, "--source-table", SOURCE,
                "--dest-table", "fidelitymirror");
        assertThat(copy.exitCode()).as(copy.out() + copy.err()).isZero();

        // One row's DateTime rewritten in the canonical form of the same instant.
        String row = source.lines().filter(l -> l.contains("\"Other\":[\"Edm.DateTime\",\"1601-01-01T00:00:00Z\"]"))
                .findFirst().orElseThrow();
        String pk = row.replaceAll("^\\{\"pk\":\"([^\"]*)\".*", "$1");
        String rk = row.replaceAll(".*\"rk\":\"([^\"]*)\".*", "$1");
        client("put", "fidelitymirror", "{\"partitionKey\":\"" + pk + "\",\"rowKey\":\"" + rk + "\",\"Other\":"
                + "{\"value\":\"1601-01-01T00:00:00.0000000Z\",\"type\":\"DateTime\"}}");
        Path report = Files.createTempFile("fidelity", ".jsonl");
        Cli.Run verify = Cli.run("verify", "--source-connection-string", cs, "--source-table", SOURCE,
                "--dest-table", "fidelitymirror", "--report", report.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isEqualTo(UserError.DIFFERENT);
        assertThat(verify.out()).contains("different: 0 missing, 1 different, 0 extra");
        assertThat(Files.readString(report)).contains("\"value\":\"1601-01-01T00:00:00Z\"")
                .contains("\"value\":\"1601-01-01T00:00:00.0000000Z\"");
        Files.delete(report);

        Cli.Run mirror = Cli.run("copy", "--source-connection-string", cs, "--source-table", SOURCE,
                "--dest-table", "fidelitymirror", "--mirror");
        assertThat(mirror.exitCode()).as(mirror.out() + mirror.err()).isZero();
        assertThat(client("dump", "fidelitymirror")).isEqualTo(source);

        // The rows sent to a topic: the JSON of each holds the texts as the service sent them.
        String kafka = LocalServices.broker().bootstrapServers();
        Cli.Run topic = Cli.run("copy", "--source-connection-string", cs, "--source-table", SOURCE,
                "--to-topic", "fidelity-rows", "--kafka", kafka);
        assertThat(topic.exitCode()).as(topic.out() + topic.err()).isZero();
        List<String> records = new java.util.ArrayList<>();
        Map<String, Object> config = Map.of("bootstrap.servers", kafka, "isolation.level", "read_committed");
        try (var consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = Topics.partitions(consumer, "fidelity-rows");
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Topics.readToEnd(consumer, consumer.endOffsets(partitions),
                    record -> records.add(new String(record.value(), StandardCharsets.UTF_8)));
        }
        assertThat(records).hasSize(67);
        // Each text as the dump holds it (annotation and text) and as the topic's JSON does.
        Map<String, String> texts = Map.of(
                "\"Other\":[\"Edm.DateTime\",\"1601-01-01T00:00:00Z\"]", "\"Other\":\"1601-01-01T00:00:00Z\"",
                "\"Other\":[\"Edm.DateTime\",\"2024-06-30T23:59:59.1Z\"]", "\"Other\":\"2024-06-30T23:59:59.1Z\"",
                "\"OtherId\":[\"Edm.Guid\",\"C9DA6455-213D-42C9-9A79-3E9149A57833\"]",
                "\"OtherId\":\"C9DA6455-213D-42C9-9A79-3E9149A57833\"",
                "\"OtherBig\":[\"Edm.Int64\",\"0042\"]", "\"OtherBig\":\"0042\"");
        texts.forEach((dumped, sent) -> {
            long inSource = source.lines().filter(l -> l.contains("\"raw\":") && l.substring(l.indexOf("\"raw\":"))
                    .contains(dumped)).count();
            assertThat(inSource).as(dumped).isPositive();
            assertThat(records.stream().filter(r -> r.contains(sent)).count()).as(sent).isEqualTo(inSource);
        });
    }

    /** Runs tools/azurite/tables-client.mjs (the JavaScript SDK) against the tests' Azurite; returns stdout. */
    static String client(String... args) throws IOException, InterruptedException {
        Path tools = AzuriteServer.toolsFolder();
        Path out = Files.createTempFile("tables-client", ".out");
        try {
            List<String> command = new java.util.ArrayList<>(List.of("node", tools.resolve("tables-client.mjs").toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            builder.environment().put("TABLES_CONNECTION_STRING", LocalServices.azurite().connectionString());
            Process process = builder.start();
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("tables-client " + args[0] + " finished").isTrue();
            assertThat(process.exitValue()).as("tables-client " + args[0] + " exit code").isZero();
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
