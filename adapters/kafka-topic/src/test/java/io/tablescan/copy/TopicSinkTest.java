package io.tablescan.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The topic sink: a record per row, keyed by its keys; a target that is no topic, or one of tablescan's own, refused. */
class TopicSinkTest {
    static final KafkaSettings KAFKA = KafkaSettings.of("unused:9092");

    static SinkContext context(String topic) {
        return context(topic, Map.of());
    }

    static SinkContext context(String topic, Map<String, String> options) {
        return new SinkContext() {
            @Override
            public SinkRef ref() {
                return new SinkRef(TopicSink.TYPE, null, topic, options);
            }

            @Override
            public <T> T account(String alias, Class<T> kind) {
                throw new IllegalArgumentException("no accounts");
            }
        };
    }

    @Test
    void publishesEachRowAsItsRestJsonKeyedByItsKeys() {
        List<String> published = new ArrayList<>();
        var sink = new TopicSink.Provider(KAFKA).create(context("rows"));

        int requests = sink.write(List.of(new Row("p", "r1", List.of(new RowProperty("N", EdmType.INT64, 5L))),
                new Row("p", "r2", List.of())), (topic, key, value, headers) -> published.add(
                        topic + " " + new String(key, StandardCharsets.UTF_8) + " " + new String(value, StandardCharsets.UTF_8)));

        assertThat(requests).as("no table requests").isZero();
        assertThat(published).containsExactly(
                "rows [\"p\",\"r1\"] {\"PartitionKey\":\"p\",\"RowKey\":\"r1\",\"N@odata.type\":\"Edm.Int64\",\"N\":\"5\"}",
                "rows [\"p\",\"r2\"] {\"PartitionKey\":\"p\",\"RowKey\":\"r2\"}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "..", "tablescan.entity-batches", "tablescan.dead-letters",
        "team2.entity-batches", "team2-ledger-scans-changelog", "__consumer_offsets", "__transaction_state"})
    void aTargetThatIsNoTopicOrOneOfTablescansOrKafkasOwnFailsPermanently(String topic) {
        assertThat(Namespace.DEFAULT.topics()).contains("tablescan.entity-batches");
        assertThatThrownBy(() -> new TopicSink.Provider(KAFKA).create(context(topic)))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse());
    }

    @Test
    void anExportsOwnTopicIsOneItPublishesTo() {
        assertThat(new TopicSink.Provider(KAFKA).create(context("tablescan.export-scan-20261206-120000-abcd"))).isNotNull();
    }

    @Test
    void withKeyPartitionEveryRowOfAPartitionSharesOneKey() {
        List<String> keys = new ArrayList<>();
        var sink = new TopicSink.Provider(KAFKA).create(context("rows", Map.of("key", "partition")));
        sink.write(List.of(new Row("p", "r1", List.of()), new Row("p", "r2", List.of())),
                (topic, key, value, headers) -> keys.add(new String(key, StandardCharsets.UTF_8)));
        assertThat(keys).containsExactly("[\"p\"]", "[\"p\"]");
        assertThatThrownBy(() -> new TopicSink.Provider(KAFKA).create(context("rows", Map.of("key", "other"))))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse());
    }

    @Test
    void aCompressionTheTopicCannotHaveFailsPermanently() {
        assertThatThrownBy(() -> new TopicSink.Provider(KAFKA).create(context("rows", Map.of("compression", "lz5"))))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessage("option compression must be one of none, gzip, snappy, lz4, zstd");
    }
}
