package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/** Which records of an aborted transaction were refused for good, and which only failed with them. */
class RefusedRecordsTest {
    private final Map<ProducerRecord<byte[], byte[]>, Future<RecordMetadata>> sent = new IdentityHashMap<>();

    @Test
    void theProducersUnsentBatchesFailedWithTheRefusalAreNotRefusedThemselves() {
        // The producer fails every batch it had not sent yet with the first refusal's own exception.
        RecordTooLargeException tooLarge = new RecordTooLargeException("larger than the max message size");
        ProducerRecord<byte[], byte[]> row = failed("user-topic", tooLarge);
        ProducerRecord<byte[], byte[]> otherRow = failed("user-topic", tooLarge);
        failed("tablescan.entity-batches", tooLarge);
        failed("tablescan.scan-events", tooLarge);
        succeeded("tablescan.prefix-queries");

        var refused = RefusedRecords.of(sent, "user-topic");

        assertThat(refused.keySet()).containsExactlyInAnyOrder(row, otherRow);
        assertThat(refused.get(row).getMessage()).contains("topic user-topic refused a record of 3 bytes")
                .contains("max.message.bytes");
    }

    @Test
    void anAuthorizationFailureRefusesOnlyTheTopicsItNames() {
        TopicAuthorizationException denied = new TopicAuthorizationException(Set.of("secret"));
        ProducerRecord<byte[], byte[]> row = failed("secret", denied);
        failed("tablescan.entity-batches", denied);

        assertThat(RefusedRecords.of(sent, null).keySet()).containsExactly(row);
    }

    @Test
    void aFailureARetryCanFixRefusesNothing() {
        failed("user-topic", new TimeoutException("expired"));

        assertThat(RefusedRecords.of(sent, "user-topic")).isEmpty();
    }

    private ProducerRecord<byte[], byte[]> failed(String topic, RuntimeException e) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, new byte[] {1}, new byte[] {1, 2, 3});
        sent.put(record, CompletableFuture.failedFuture(e));
        return record;
    }

    private void succeeded(String topic) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, new byte[] {1}, new byte[] {1});
        sent.put(record, CompletableFuture.completedFuture(
                new RecordMetadata(new TopicPartition(topic, 0), 0, 0, 0, 1, 1)));
    }
}
