package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which topics no rows may go to: Kafka's internal ones, and every namespace's, not only the scan's own. */
class ReservedTopicsTest {
    @ParameterizedTest
    @CsvSource({
        "team2.entity-batches, team2", "team2.prefix-queries, team2", "team2.partition-queries, team2",
        "team2.scan-events, team2", "team2.scan-control, team2", "team2.dead-letters, team2", "team2.scans, team2",
        "team2.differences, team2", "team2.rate-demand, team2", "tablescan-copy-0a1b2c3d.entity-batches, tablescan-copy-0a1b2c3d",
        "a.b.entity-batches, a.b", "team2-ledger-scans-changelog, team2", "team2-ledger-KSTREAM-X-repartition, team2"})
    void everyNamespacesWorkTopicsAreRefusedNamingTheNamespace(String topic, String namespace) {
        assertThat(ReservedTopics.refusal(topic)).isEqualTo("is a name of tablescan's own topics (namespace " + namespace
                + "): give a topic outside it");
        assertThat(ReservedTopics.refusalOfNamed(topic)).isEqualTo(ReservedTopics.refusal(topic));
    }

    @ParameterizedTest
    @ValueSource(strings = {"__consumer_offsets", "__transaction_state", "__share_group_state", "__anything"})
    void kafkasInternalTopicsAreRefused(String topic) {
        assertThat(ReservedTopics.refusal(topic)).isEqualTo("is one of Kafka's internal topics: give a topic of your own");
    }

    @ParameterizedTest
    @ValueSource(strings = {"team2.export-scan-20261206-120000-abcd", "team2.import-scan-1", "team2.verify-scan-1"})
    void aJobsOwnTopicsAreRefusedToAUserButNotToTheJobThatPublishesThere(String topic) {
        assertThat(ReservedTopics.refusal(topic)).isNull();
        assertThat(ReservedTopics.refusalOfNamed(topic)).contains("(namespace team2)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rows", "team2.rows", "entity-batches", "team2.entity-batches-copy", "_private", "ledger-changelog",
        "orders.export-2026"})
    void otherTopicsAreAccepted(String topic) {
        assertThat(ReservedTopics.refusalOfNamed(topic)).isNull();
    }
}
