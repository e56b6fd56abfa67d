package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** TABLESCAN_NAMESPACE: today's names by default, every name under another namespace, and what it may hold. */
class NamespaceTest {
    static final String KAFKA = "KAFKA_BOOTSTRAP_SERVERS";

    @Test
    void theDefaultKeepsTheNamesTablescanAlwaysHad() {
        Namespace ns = WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092")).kafka().namespace();
        assertThat(ns).isEqualTo(Namespace.DEFAULT);
        assertThat(ns.topics()).containsExactly("tablescan.prefix-queries", "tablescan.partition-queries",
                "tablescan.entity-batches", "tablescan.scan-events", "tablescan.dead-letters", "tablescan.scans",
                "tablescan.scan-control", "tablescan.differences", "tablescan.rate-demand");
        assertThat(WorkerRuntime.groupId(ns, "copy")).isEqualTo("tablescan-copy");
        assertThat(ns.ledger()).isEqualTo("tablescan-ledger");
        assertThat(ns.topic(ItemKind.ENTITY_BATCH)).isEqualTo("tablescan.entity-batches");
        assertThat(Namespace.fromEnvironment(Map.of(Namespace.VARIABLE, " "))).isEqualTo(Namespace.DEFAULT);
    }

    @Test
    void everyTopicAndGroupOfAnotherNamespaceIsItsOwn() {
        Namespace ns = WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092", Namespace.VARIABLE, "team-b"))
                .kafka().namespace();
        assertThat(ns.topics()).allMatch(t -> t.startsWith("team-b.")).doesNotContainAnyElementsOf(Namespace.DEFAULT.topics());
        assertThat(ns.topic(ItemKind.PREFIX_QUERY)).isEqualTo("team-b.prefix-queries");
        assertThat(ns.kindOf("team-b.partition-queries")).isEqualTo(ItemKind.PARTITION_QUERY);
        assertThat(ns.kindOf(Namespace.DEFAULT.partitionQueries())).as("another namespace's topic").isNull();
        assertThat(ns.compacted()).containsExactly("team-b.scans", "team-b.scan-control", "team-b.rate-demand");
        assertThat(WorkerRuntime.groupId(ns, "discovery")).isEqualTo("team-b-discovery");
        assertThat(ns.ledger()).isEqualTo("team-b-ledger");
    }

    @Test
    void aPrivateCopyNamespaceLivesUnderItsOwnAndIsNewEachTime() {
        Namespace team = Namespace.of("team-b");
        Namespace one = team.privateCopy();
        Namespace two = team.privateCopy();
        assertThat(one.name()).matches("team-b-copy-[0-9a-f]{8}");
        assertThat(one).isNotEqualTo(two);
        assertThat(Namespace.DEFAULT.privateCopy().name()).startsWith("tablescan-copy-");
        // The longest allowed namespace still makes a private one and a ledger changelog within Kafka's 249.
        Namespace longest = Namespace.of("n".repeat(Namespace.MAX_LENGTH)).privateCopy();
        assertThat((longest.ledger() + "-scans-changelog").length()).isLessThanOrEqualTo(249);
    }

    @Test
    void anIllegalNamespaceIsOneClearErrorThatDoesNotEchoTheValue() {
        assertThatThrownBy(() -> Namespace.fromEnvironment(Map.of(Namespace.VARIABLE, "team b;AccountKey=secret")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TABLESCAN_NAMESPACE must be 1 to 200 characters of a-z, A-Z, 0-9, '.', '_' and '-'; "
                        + "U+0020 at position 5 is not");
        assertThatThrownBy(() -> Namespace.of("team/b")).hasMessageEndingWith("'/' at position 5 is not");
        assertThatThrownBy(() -> Namespace.of("x".repeat(201))).hasMessageContaining("got 201");
        assertThatThrownBy(() -> WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092", Namespace.VARIABLE, "a:b")))
                .hasMessageStartingWith("TABLESCAN_NAMESPACE must be");
    }
}
