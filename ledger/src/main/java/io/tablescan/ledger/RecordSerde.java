package io.tablescan.ledger;

import io.tablescan.runtime.KafkaSettings;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** A Streams serde for one record type over the configured value serde (Avro single-object by default). */
final class RecordSerde {
    private RecordSerde() {}

    static <T extends SpecificRecord> Serde<T> of(Class<T> type, KafkaSettings kafka) {
        Serializer<SpecificRecord> serializer = kafka.valueSerializer();
        Deserializer<SpecificRecord> deserializer = kafka.valueDeserializer();
        return Serdes.serdeFrom(
                (topic, value) -> serializer.serialize(topic, value),
                (topic, bytes) -> {
                    if (bytes == null) {
                        return null;
                    }
                    SpecificRecord record = deserializer.deserialize(topic, bytes);
                    if (!type.isInstance(record)) {
                        throw new IllegalArgumentException("expected " + type.getSimpleName() + " on " + topic + ", got "
                                + (record == null ? "null" : record.getSchema().getName()));
                    }
                    return type.cast(record);
                });
    }
}
