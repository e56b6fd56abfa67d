package io.tablescan.serde;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes any tablescan record in Avro single-object encoding: a 10-byte header with the writer schema's
 * fingerprint, then the binary body. Needs no schema registry; a deployment that has one configures
 * Confluent's serializer as {@code value.serializer} instead.
 */
public final class AvroSingleObjectSerializer implements Serializer<SpecificRecord> {
    private final Map<Schema, BinaryMessageEncoder<SpecificRecord>> encoders = new ConcurrentHashMap<>();

    @Override
    public byte[] serialize(String topic, SpecificRecord record) {
        if (record == null) {
            return null;
        }
        BinaryMessageEncoder<SpecificRecord> encoder = encoders.computeIfAbsent(record.getSchema(),
                schema -> new BinaryMessageEncoder<>(WireRecords.model(), schema));
        try {
            return encoder.encode(record).array();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            throw new SerializationException("cannot encode " + record.getSchema().getName() + ": " + e.getMessage(), e);
        }
    }
}
