package io.tablescan.runtime;

import io.tablescan.spi.SinkException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * The records of an aborted transaction that the broker refused for good: larger than their topic's
 * {@code max.message.bytes}, a topic the worker may not write, a topic no producer may write (Kafka's internal ones).
 * A replay would send them again and be refused again, holding every other item of the worker's transactions with
 * them; so each record's item is parked with the reason instead, and the transaction is tried again without it.
 */
final class RefusedRecords {
    private RefusedRecords() {}

    /**
     * Of the records sent (with where each went), those refused for good, with the reason to park them with.
     *
     * <p>Once one record is refused, the producer fails every batch it had not sent yet with that same error, whatever
     * their topics: those records were not refused and must be replayed, not parked. So a record counts as refused
     * only on the topic whose send failed first ({@code firstFailedTopic}, when the producer's callbacks told it), and
     * for an authorization failure only on a topic the error names.
     */
    static Map<ProducerRecord<byte[], byte[]>, Throwable> of(Map<ProducerRecord<byte[], byte[]>, Future<RecordMetadata>> sent,
            String firstFailedTopic) {
        Map<ProducerRecord<byte[], byte[]>, Throwable> refused = new IdentityHashMap<>();
        sent.forEach((record, future) -> {
            Throwable cause = failure(future);
            if (forGood(cause) && (firstFailedTopic == null || firstFailedTopic.equals(record.topic()))
                    && !(cause instanceof TopicAuthorizationException denied
                            && !denied.unauthorizedTopics().isEmpty()
                            && !denied.unauthorizedTopics().contains(record.topic()))) {
                refused.put(record, reason(record, cause));
            }
        });
        return refused;
    }

    /** What a finished send failed with; null while it runs or when it succeeded (an abort does not wait for every send). */
    private static Throwable failure(Future<RecordMetadata> future) {
        if (!future.isDone()) {
            return null;
        }
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (RuntimeException e) { // cancelled
            return null;
        }
    }

    static boolean forGood(Throwable cause) {
        return cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
                || cause instanceof TopicAuthorizationException || cause instanceof InvalidTopicException;
    }

    /** The reason a user reads in the scan's errors and the dead letter: the topic, the size, what to change. */
    private static Throwable reason(ProducerRecord<byte[], byte[]> record, Throwable cause) {
        int bytes = record.value() == null ? 0 : record.value().length;
        String why = cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
                ? " (larger than the topic's max.message.bytes or the broker's message.max.bytes)"
                : cause instanceof TopicAuthorizationException ? " (this worker may not write to it)" : "";
        return new SinkException("topic " + record.topic() + " refused a record of " + bytes + " bytes" + why + ": "
                + cause.getMessage(), false, cause);
    }
}
