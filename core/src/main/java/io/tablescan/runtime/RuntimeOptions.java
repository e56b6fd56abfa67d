package io.tablescan.runtime;

import io.tablescan.serde.AvroSingleObjectDeserializer;
import io.tablescan.serde.AvroSingleObjectSerializer;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What a {@link WorkerRuntime} runs as: the worker, the namespace and the kind of item it consumes, how many items it
 * processes at once and on what threads, how records are read and written, and which scans were cancelled. Start
 * from {@link #of} and change what differs from its defaults:
 * <pre>{@code
 * RuntimeOptions.of("copy", namespace, ItemKind.ENTITY_BATCH).withMaxInFlight(500).withSerdes(serializer, deserializer)
 * }</pre>
 *
 * @param cancelled true for a scan whose items are to be skipped
 * @param cancelFollower what keeps {@code cancelled} up to date, closed with the runtime
 * @param closeAtOnce the consumer closes without leaving its group or waiting for the fetch it has in flight: on
 *     a broker whose data ends with the command, nobody takes its partitions over
 */
public record RuntimeOptions(String worker, Namespace namespace, ItemKind input, int maxInFlight, ItemThreads itemThreads,
        Serializer<SpecificRecord> serializer, Deserializer<SpecificRecord> deserializer, Predicate<String> cancelled,
        AutoCloseable cancelFollower, boolean closeAtOnce) {

    /** One item at a time on virtual threads, Avro single-object records, no scan cancelled. */
    public static RuntimeOptions of(String worker, Namespace namespace, ItemKind input) {
        return new RuntimeOptions(worker, namespace, input, 1, ItemThreads.VIRTUAL, new AvroSingleObjectSerializer(),
                new AvroSingleObjectDeserializer(), scanId -> false, () -> { }, false);
    }

    /** At most this many items processed at once. */
    public RuntimeOptions withMaxInFlight(int maxInFlight) {
        return new RuntimeOptions(worker, namespace, input, maxInFlight, itemThreads, serializer, deserializer, cancelled,
                cancelFollower, closeAtOnce);
    }

    public RuntimeOptions withItemThreads(ItemThreads itemThreads) {
        return new RuntimeOptions(worker, namespace, input, maxInFlight, itemThreads, serializer, deserializer, cancelled,
                cancelFollower, closeAtOnce);
    }

    /** How record values are written and read (Kafka's serializer settings, say). */
    public RuntimeOptions withSerdes(Serializer<SpecificRecord> serializer, Deserializer<SpecificRecord> deserializer) {
        return new RuntimeOptions(worker, namespace, input, maxInFlight, itemThreads, serializer, deserializer, cancelled,
                cancelFollower, closeAtOnce);
    }

    /** The cancelled scans, and what follows them (closed with the runtime). */
    public RuntimeOptions withCancelled(Predicate<String> cancelled, AutoCloseable cancelFollower) {
        return new RuntimeOptions(worker, namespace, input, maxInFlight, itemThreads, serializer, deserializer, cancelled,
                cancelFollower, closeAtOnce);
    }

    /** Whether the consumer closes at once (see above). */
    public RuntimeOptions withCloseAtOnce(boolean closeAtOnce) {
        return new RuntimeOptions(worker, namespace, input, maxInFlight, itemThreads, serializer, deserializer, cancelled,
                cancelFollower, closeAtOnce);
    }
}
