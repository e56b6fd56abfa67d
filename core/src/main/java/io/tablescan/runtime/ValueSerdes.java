package io.tablescan.runtime;

import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The serdes of the pipeline's records, from the client settings: the classes {@code value.serializer} and
 * {@code value.deserializer} name (Confluent's, with a registry), else Avro single-object encoding.
 */
final class ValueSerdes {
    private ValueSerdes() {}

    @SuppressWarnings("unchecked")
    static Serializer<SpecificRecord> serializer(Properties settings) {
        Serializer<SpecificRecord> serializer = settings.containsKey("value.serializer")
                ? instance(settings, "value.serializer", Serializer.class) : new AvroSingleObjectSerializer();
        serializer.configure(configs(settings), false);
        return serializer;
    }

    @SuppressWarnings("unchecked")
    static Deserializer<SpecificRecord> deserializer(Properties settings) {
        Deserializer<SpecificRecord> deserializer = settings.containsKey("value.deserializer")
                ? instance(settings, "value.deserializer", Deserializer.class) : new AvroSingleObjectDeserializer();
        deserializer.configure(configs(settings), false);
        return deserializer;
    }

    private static <T> T instance(Properties settings, String key, Class<T> type) {
        String className = settings.getProperty(key);
        try {
            return type.cast(Class.forName(className).getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException(key + ": cannot create " + className + " (is its jar on the class path?)");
        }
    }

    private static Map<String, Object> configs(Properties settings) {
        Map<String, Object> configs = new HashMap<>();
        settings.forEach((k, v) -> configs.put(k.toString(), v));
        configs.putIfAbsent("specific.avro.reader", "true");
        return configs;
    }
}
