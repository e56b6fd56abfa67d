package io.tablescan.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the single-object encoding written by {@link AvroSingleObjectSerializer}. The fingerprint in the
 * header picks the record type; older writer schemas registered with {@link #addWriterSchema} are
 * resolved against the current reader schema, so producers can be upgraded after consumers.
 */
public final class AvroSingleObjectDeserializer implements Deserializer<SpecificRecord> {
    private static final byte[] MAGIC = {(byte) 0xC3, (byte) 0x01};

    /** Writer fingerprint to the decoder for the record type it belongs to. */
    private final Map<Long, BinaryMessageDecoder<SpecificRecord>> decoders = new HashMap<>();
    private final Map<String, BinaryMessageDecoder<SpecificRecord>> byName = new HashMap<>();

    public AvroSingleObjectDeserializer() {
        for (Schema schema : WireRecords.SCHEMAS) {
            BinaryMessageDecoder<SpecificRecord> decoder = new BinaryMessageDecoder<>(WireRecords.model(), schema);
            byName.put(schema.getFullName(), decoder);
            decoders.put(SchemaNormalization.parsingFingerprint64(schema), decoder);
        }
        WireRecords.releasedSchemas().forEach(this::addWriterSchema);
    }

    /** Accepts records written with an older version of one of our schemas. */
    public void addWriterSchema(Schema writer) {
        BinaryMessageDecoder<SpecificRecord> decoder = byName.get(writer.getFullName());
        if (decoder == null) {
            throw new IllegalArgumentException("not a tablescan record: " + writer.getFullName());
        }
        decoder.addSchema(writer);
        decoders.put(SchemaNormalization.parsingFingerprint64(writer), decoder);
    }

    @Override
    public SpecificRecord deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length < 10 || data[0] != MAGIC[0] || data[1] != MAGIC[1]) {
            throw new SerializationException("not an Avro single-object record (bad header)");
        }
        long fingerprint = ByteBuffer.wrap(data, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        BinaryMessageDecoder<SpecificRecord> decoder = decoders.get(fingerprint);
        if (decoder == null) {
            throw new SerializationException("unknown schema fingerprint " + Long.toHexString(fingerprint));
        }
        try {
            return decoder.decode(data);
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new SerializationException("corrupt " + topic + " record: " + e.getMessage(), e);
        }
    }
}
