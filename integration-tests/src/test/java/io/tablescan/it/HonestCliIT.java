package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.spi.Row;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * The command line is honest with the person at the terminal: a copy onto its own source is refused, a
 * destination that holds rows is pointed out, and every mistake exits with the README's code for it, not 70.
 * Real commands against a real broker and Azurite.
 */
class HonestCliIT {
    @Test
    void aTableCopiedOntoItselfIsRefusedBeforeAnythingIsRead() {
        String cs = LocalServices.azurite().connectionString();
        SampleTable.write(LocalServices.store(), "selfsource", SampleTable.rows(50), 4);

        // Table names are compared without case, as the service does.
        assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "selfsource", "--dest-table",
                "SelfSource"), 2, "the destination is the source: table selfsource on the same account");
        // The same account given twice: two clients, one endpoint.
        assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "selfsource",
                "--dest-connection-string", cs, "--dest-table", "selfsource"), 2, "the destination is the source");
        // Before anything is read: a missing source would otherwise exit 4.
        assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "nosuchself", "--dest-table",
                "NoSuchSelf"), 2, "the destination is the source");
        // start: one alias in two spellings is one account; refused before Kafka is asked (that would exit 3).
        assertOneLine(run("start", "--kafka", "127.0.0.1:" + FreePorts.find(), "--source-account", "prod",
                "--source-table", "Packages", "--dest-account", "PROD", "--dest-table", "packages"), 2,
                "the destination is the source");
    }

    @Test
    void twoAliasesOfOneAccountAreOneAccountAndSampleTakesAnAliasToo() throws Exception {
        String cs = LocalServices.azurite().connectionString();
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_FIRST_CONNECTION_STRING", cs,
                "TABLESCAN_ACCOUNT_SECOND_CONNECTION_STRING", cs);
        try (ChildProcesses children = new ChildProcesses("honest-cli")) {
            Process sample = children.start("sample", env, "sample", "--account", "first", "--table", "aliassource",
                    "--rows", "20");
            assertThat(sample.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(sample.exitValue()).as(children.output("sample")).isZero();
            assertThat(TableComparer.compare(LocalServices.store(), "aliassource", LocalServices.store(), "aliassource")
                    .sourceRows()).isEqualTo(20);

            Process copy = children.start("copy", env, "copy", "--source-account", "first", "--source-table",
                    "aliassource", "--dest-account", "second", "--dest-table", "AliasSource");
            Process start = children.start("start", env, "start", "--kafka", "127.0.0.1:" + FreePorts.find(),
                    "--source-account", "first", "--source-table", "aliassource", "--dest-account", "second",
                    "--dest-table", "ALIASSOURCE");
            for (var run : List.of(Map.entry("copy", copy), Map.entry("start", start))) {
                assertThat(run.getValue().waitFor(2, TimeUnit.MINUTES)).isTrue();
                assertThat(run.getValue().exitValue()).as(children.output(run.getKey())).isEqualTo(UserError.USAGE);
                assertThat(children.output(run.getKey())).contains("the destination is the source")
                        .doesNotContain(LocalServices.azurite().accountKey());
            }
        }
    }

    @Test
    void aCopyIntoATableThatHoldsRowsSaysSoInOneLineAndKeepsTheOtherRows() {
        String cs = LocalServices.azurite().connectionString();
        var store = LocalServices.store();
        SampleTable.write(store, "warnsource", SampleTable.rows(200), 4);
        SampleTable.write(store, "warndest", List.of(new Row("zz-only-in-destination", "1", List.of())), 1);

        Cli.Run run = run("copy", "--source-connection-string", cs, "--source-table", "warnsource", "--dest-table",
                "warndest");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.err().lines().filter(l -> l.contains("already holds rows")).toList()).containsExactly(
                "warning: the destination table warndest already holds rows: rows with the source's keys are replaced, "
                        + "its other rows are kept");
        assertThat(TableComparer.compare(store, "warnsource", store, "warndest").destinationRows()).isEqualTo(201);

        Cli.Run fresh = run("copy", "--source-connection-string", cs, "--source-table", "warnsource", "--dest-table",
                "warnfresh");
        assertThat(fresh.exitCode()).as(fresh.out() + fresh.err()).isZero();
        assertThat(fresh.err()).doesNotContain("already holds rows");

        // --json: the result alone on stdout, one JSON object with the figures another client confirms; the
        // summary for people on stderr.
        Cli.Run json = run("copy", "--source-connection-string", cs, "--source-table", "warnsource", "--dest-table",
                "warnjson", "--json");
        assertThat(json.exitCode()).as(json.out() + json.err()).isZero();
        assertThat(json.printed()).singleElement().asString().startsWith("{\"scanId\":\"scan-")
                .contains("\"job\":\"copy\"", "\"state\":\"COMPLETED\"", "\"rowsRead\":200",
                        "\"rowsWritten\":200", "\"exitCode\":0}");
        assertThat(json.err()).contains("rows written:  200");
        assertThat(TableComparer.compare(store, "warnsource", store, "warnjson").destinationRows()).isEqualTo(200);
    }

    @Test
    void onAFreshClusterEveryScanIdIsUnknownNotAnInternalError() {
        try (EmbeddedKafkaBroker fresh = EmbeddedKafkaBroker.start()) {
            for (String command : List.of("status", "failures", "retry", "cancel")) {
                assertOneLine(run(command, "scan-20260101-000000-abcd", "--kafka", fresh.bootstrapServers()), 4,
                        "no scan scan-20260101-000000-abcd: this Kafka cluster has no scans at all");
            }

            // Scans in another namespace (a mistyped TABLESCAN_NAMESPACE): named, not "no scans at all". A private
            // copy's namespace ends with its command and is not named, nor one whose ledger recorded no scan (team3).
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", fresh.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("team2.scans", 1, (short) 1), new NewTopic("team3.scans", 1,
                        (short) 1), new NewTopic("team2-copy-0a1b2c3d.scans", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]>(Map.<String, Object>of(
                    "bootstrap.servers", fresh.bootstrapServers()), new org.apache.kafka.common.serialization.ByteArraySerializer(),
                    new org.apache.kafka.common.serialization.ByteArraySerializer())) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("team2.scans", new byte[] {1},
                        new byte[] {1})).get(30, TimeUnit.SECONDS); // a scan team2's ledger recorded
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("team2-copy-0a1b2c3d.scans",
                        new byte[] {1}, new byte[] {1})).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            Cli.Run list = run("status", "--kafka", fresh.bootstrapServers());
            assertThat(list.exitCode()).as(list.out() + list.err()).isZero();
            assertThat(list.out().strip()).isEqualTo("no scans in namespace tablescan; scans are in namespace team2 "
                    + "(TABLESCAN_NAMESPACE picks one)");
            assertOneLine(run("status", "scan-20260101-000000-abcd", "--kafka", fresh.bootstrapServers()), 4,
                    "no scan scan-20260101-000000-abcd: this namespace has no scans; scans are in namespace team2 "
                            + "(TABLESCAN_NAMESPACE picks one)");
        }
    }

    @Test
    void aWrongKeyIsDeniedAndAKeyThatIsNotBase64IsAUsageErrorAtOnce() {
        String cs = LocalServices.azurite().connectionString();
        String key = LocalServices.azurite().accountKey();
        String wrongKey = cs.replace(key, Base64.getEncoder().encodeToString(new byte[64]));
        String notBase64 = cs.replace(key, "not-base64!" + key.substring(12));

        Cli.Run denied = run("sample", "--connection-string", wrongKey, "--table", "deniedsample", "--rows", "10");
        assertOneLine(denied, 6, "403");

        long start = System.nanoTime();
        for (List<String> args : List.of(
                List.of("sample", "--connection-string", notBase64, "--table", "badkeysample", "--rows", "10"),
                List.of("copy", "--source-connection-string", notBase64, "--source-table", "abc", "--dest-table", "def"),
                List.of("copy", "--source-connection-string", cs, "--source-table", "abc", "--dest-connection-string",
                        notBase64, "--dest-table", "def"))) {
            Cli.Run run = run(args.toArray(String[]::new));
            assertOneLine(run, 2, "AccountKey is not base64");
            assertThat(run.err()).doesNotContain(key.substring(12)).doesNotContain("AAAAAAAAAA");
        }
        assertThat((System.nanoTime() - start) / 1e9).as("seconds for three malformed keys").isLessThan(10);
        assertThat(denied.err()).doesNotContain("AAAAAAAAAA").doesNotContain(key);
    }

    @Test
    void malformedKafkaAddressesAliasesAndReservedNamesAreUsageErrors() {
        String cs = LocalServices.azurite().connectionString();
        String kafka = LocalServices.broker().bootstrapServers();
        assertOneLine(run("start", "--kafka", "notahost", "--source-account", "a", "--source-table", "abc",
                "--dest-account", "b", "--dest-table", "def"), 2, "must be HOST:PORT");
        assertOneLine(run("status", "scan-1", "--kafka", "notahost"), 2, "must be HOST:PORT");
        assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "abc", "--dest-table", "def",
                "--kafka", "notahost"), 2, "must be HOST:PORT");

        // An alias names environment variables: one no shell can set is refused now, not by the workers later.
        assertOneLine(run("start", "--kafka", kafka, "--source-account", "a b!", "--source-table", "abc",
                "--dest-account", "b", "--dest-table", "def"), 2, "--source-account: is not a valid account alias");
        assertOneLine(run("start", "--kafka", kafka, "--source-account", "prod-eu", "--source-table", "abc",
                "--dest-account", "b!", "--dest-table", "def"), 2, "--dest-account: is not a valid account alias");
        assertOneLine(run("copy", "--source-account", "a b!", "--source-table", "abc", "--dest-table", "def"), 2,
                "--source-account: is not a valid account alias");

        for (String reserved : List.of("tables", "Tables", "TABLES")) {
            assertOneLine(run("copy", "--source-connection-string", cs, "--source-table", "abc", "--dest-table", reserved),
                    2, "--dest-table: '" + reserved + "' is reserved by the Table service");
        }
        assertOneLine(run("sample", "--connection-string", cs, "--table", "tables"), 2, "--table: 'tables' is reserved");
        assertOneLine(run("sample", "--table", "abc"), 2, "give one of --connection-string and --account");

        // Numbers out of range are mistakes too, not internal errors (70).
        assertOneLine(run("health", "--port", "99999"), 2, "--port must be 1 to 65535");
        assertOneLine(run("status", "--limit", "0", "--kafka", kafka), 2, "--limit must be at least 1");
        assertOneLine(run("failures", "scan-1", "--limit", "-1", "--kafka", kafka), 2, "--limit must be at least 1");
    }
}
