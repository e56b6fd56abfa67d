package io.tablescan.it;

import static io.tablescan.cli.Cli.assertOneLine;
import static io.tablescan.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.runner.TableComparer;
import org.junit.jupiter.api.Test;

/** The command line as a user meets it: the copy command end to end, and one clear line for each mistake. */
class CliIT {
    @Test
    void copyCommandCopiesWithAnEmbeddedBrokerAndReportsFigures() {
        var store = LocalServices.store();
        SampleTable.write(store, "clisource", SampleTable.rows(2_000), 8);

        Cli.Run run = run("copy", "--source-connection-string", LocalServices.azurite().connectionString(),
                "--source-table", "clisource", "--dest-table", "clicopy", "--page-size", "250");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("completed").contains("rows read:     2,000").contains("rows written:  2,000")
                .contains("rows/s:");
        assertThat(TableComparer.compare(store, "clisource", store, "clicopy").equal()).isTrue();
        assertThat(run.out() + run.err()).doesNotContain("AccountKey").doesNotContain("Eby8vdM02");
    }

    @Test
    void demoFillsCopiesAndVerifiesASampleTable() {
        Cli.Run run = run("demo", "--rows", "3000");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("source rows 3,000, copied rows 3,000, differences 0")
                .contains("demo OK: the copy equals the source");
    }

    @Test
    void benchOutsideASourceCheckoutSaysWhereItRuns() { // the image's tool has no bench module
        assertOneLine(run("bench", "--scenario", "pipeline"), 2, "the bench runs from a source checkout: ./tablescan bench");
    }

    @Test
    void userMistakesGetOneLineAndADistinctExitCode() {
        String azurite = LocalServices.azurite().connectionString();
        assertOneLine(run("copy", "--source-connection-string", "nonsense", "--source-table", "abc", "--dest-table",
                "def"), 2, "malformed connection string");
        assertOneLine(run("copy", "--source-connection-string", azurite, "--source-table", "ab", "--dest-table", "def"),
                2, "not a valid table name");
        assertOneLine(run("copy", "--source-connection-string", azurite, "--source-table", "abc", "--dest-table", "def",
                "--page-size", "1001"), 2, "--page-size must be 1 to 1000");
        assertOneLine(run("copy", "--source-connection-string", azurite, "--source-table", "nosuchtable",
                "--dest-table", "def"), 4, "does not exist");
        SampleTable.write(LocalServices.store(), "present", SampleTable.rows(1), 1);
        assertOneLine(run("copy", "--source-connection-string", azurite, "--source-table", "present", "--dest-table",
                "def", "--kafka", "kafka.invalid:9092"), 3, "cannot reach Kafka"); // a closed port is waited for:
        assertOneLine(run("start", "--kafka", "kafka.invalid:9092", "--source-account", // see StartTogetherIT
                "a", "--source-table", "abc", "--dest-account", "b", "--dest-table", "def"), 3, "cannot reach Kafka");
        // A topic no rows may go to, on a broker that is up: Kafka's own, another namespace's work topic.
        String kafka = LocalServices.broker().bootstrapServers();
        assertOneLine(run("copy", "--source-connection-string", azurite, "--source-table", "present", "--to-topic",
                "__consumer_offsets", "--kafka", kafka), 2, "--to-topic __consumer_offsets is one of Kafka's internal topics");
        assertOneLine(run("start", "--kafka", kafka, "--source-account", "a", "--source-table", "present",
                "--to-topic", "__transaction_state"), 2, "--to-topic __transaction_state is one of Kafka's internal topics");
        for (String[] command : new String[][] {{"copy", "--source-connection-string", azurite, "--kafka", kafka},
            {"start", "--kafka", kafka, "--source-account", "a"}}) {
            assertOneLine(run(SelectionIT.with(command, "--source-table", "present", "--to-topic", "team2.entity-batches")),
                    2, "--to-topic team2.entity-batches is a name of tablescan's own topics (namespace team2)");
        }
        try (var admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.<String, Object>of("bootstrap.servers", kafka))) {
            assertThat(admin.listTopics().names().get()).as("nothing made for a refused topic")
                    .doesNotContain("team2.entity-batches");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertOneLine(run("copy", "--source-table", "abc"), 2, "give where the rows go: --dest-table TABLE, --to-topic NAME or --sink TYPE");
        String wrongKey = azurite.replaceAll("AccountKey=[^;]+",
                "AccountKey=" + java.util.Base64.getEncoder().encodeToString(new byte[64]));
        assertOneLine(run("copy", "--source-connection-string", wrongKey, "--source-table", "present", "--dest-table",
                "def"), 6, "403");
        assertThat(run("copy", "--source-connection-string", wrongKey, "--source-table", "present", "--dest-table",
                "def").err()).doesNotContain("AAAAAAAAAAAA");
        String nowhere = azurite.replaceAll("TableEndpoint=http://127.0.0.1:\\d+",
                "TableEndpoint=http://127.0.0.1:" + io.tablescan.local.FreePorts.find());
        long start = System.nanoTime();
        assertOneLine(run("copy", "--source-connection-string", nowhere, "--source-table", "present", "--dest-table",
                "def"), 3, "cannot read the source table");
        assertThat((System.nanoTime() - start) / 1e9).as("seconds to give up on a closed port").isLessThan(30);
        assertOneLine(run("status", "nosuchscan"), 2, "no Kafka cluster");
    }
}
