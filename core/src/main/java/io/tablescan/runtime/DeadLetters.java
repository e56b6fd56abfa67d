package io.tablescan.runtime;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/** Parks a record that cannot be processed, with the reason in its headers; the bytes are kept as read. */
public final class DeadLetters {
    public static final String SCAN_ID = "tablescan.scan-id";
    public static final String ORIGINAL_TOPIC = "tablescan.original-topic";
    public static final String ORIGINAL_PARTITION = "tablescan.original-partition";
    public static final String ORIGINAL_OFFSET = "tablescan.original-offset";
    public static final String ERROR_CLASS = "tablescan.error-class";
    public static final String ERROR_MESSAGE = "tablescan.error-message";
    public static final String ATTEMPTS = "tablescan.attempts";
    public static final String WORKER = "tablescan.worker";

    private DeadLetters() {}

    /** The dead letter of a record, for the dead-letter topic of the worker's namespace. */
    public static ProducerRecord<byte[], byte[]> of(Namespace namespace, ConsumerRecord<byte[], byte[]> record,
            String scanId, Throwable error, int attempts, String worker) {
        ProducerRecord<byte[], byte[]> letter =
                new ProducerRecord<>(namespace.deadLetters(), null, record.key(), record.value(), record.headers());
        Headers headers = letter.headers();
        put(headers, SCAN_ID, scanId == null ? "" : scanId);
        put(headers, ORIGINAL_TOPIC, record.topic());
        put(headers, ORIGINAL_PARTITION, Integer.toString(record.partition()));
        put(headers, ORIGINAL_OFFSET, Long.toString(record.offset()));
        put(headers, ERROR_CLASS, error.getClass().getName());
        put(headers, ERROR_MESSAGE, String.valueOf(error.getMessage()));
        put(headers, ATTEMPTS, Integer.toString(attempts));
        put(headers, WORKER, worker);
        return letter;
    }

    public static String header(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
