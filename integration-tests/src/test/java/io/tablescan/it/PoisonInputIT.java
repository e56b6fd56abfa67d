package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EdmType;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.KeyBound;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.Property;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.serde.AvroSingleObjectSerializer;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Garbage on every input topic is parked with its reason; no worker stops, and a real scan is unaffected. */
class PoisonInputIT {
    static ScanSpec poisonSpec(String account, String table, int pageSize) {
        return ScanSpec.newBuilder().setScanId("poison-scan").setSource(new TableRef(account, "poisonsource"))
                .setDestination(new TableRef(account, table)).setPageSize(pageSize).setPageBudget(2)
                .setCreatedAtMillis(System.currentTimeMillis()).build();
    }

    @Test
    void poisonIsParkedWithAReasonAndOtherScansCompleteExactly() throws Exception {
        var store = LocalServices.store();
        SampleTable.write(store, "poisonsource", SampleTable.rows(3_000), 8);
        String bootstrap = LocalServices.broker().bootstrapServers();
        KafkaSettings kafka = KafkaSettings.of(bootstrap);
        Accounts accounts = new Accounts(name -> null).register("azurite", store);
        AvroSingleObjectSerializer avro = new AvroSingleObjectSerializer();
        Random random = new Random(8);
        List<String> expectedReasons = new ArrayList<>();

        try (LocalPipeline pipeline = LocalPipeline.start(WorkerSettings.local(bootstrap, accounts));
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(rawProducer(bootstrap))) {
            for (String topic : List.of(Namespace.DEFAULT.prefixQueries(), Namespace.DEFAULT.partitionQueries(), Namespace.DEFAULT.entityBatches())) {
                byte[] noise = new byte[64];
                random.nextBytes(noise);
                producer.send(new ProducerRecord<>(topic, noise));
                byte[] unknownSchema = new byte[20];
                random.nextBytes(unknownSchema);
                unknownSchema[0] = (byte) 0xC3;
                unknownSchema[1] = 0x01;
                producer.send(new ProducerRecord<>(topic, unknownSchema));
                expectedReasons.add(topic + ": bad header");
                expectedReasons.add(topic + ": unknown schema fingerprint");
            }
            send(producer, avro, new PrefixQuery("p0", poisonSpec("azurite", "poisoncopy", 0), null, null, null, 0, null));
            expectedReasons.add(Namespace.DEFAULT.prefixQueries() + ": page size must be 1 to 1000");
            send(producer, avro, new PrefixQuery("p1", poisonSpec("azurite", "poisoncopy", 10),
                    new KeyBound("b", true), null, "a", 0, null));
            expectedReasons.add(Namespace.DEFAULT.prefixQueries() + ": is not below upper bound");
            send(producer, avro, new PartitionQuery("p2", poisonSpec("nosuch", "poisoncopy", 10), "pk", null, 0, null));
            expectedReasons.add(Namespace.DEFAULT.partitionQueries() + ": unknown account alias 'nosuch'");
            Entity entity = new Entity("r", List.of(new Property("v", EdmType.INT32, 1, null)), null);
            send(producer, avro, new EntityBatch("p3", poisonSpec("azurite", "x", 10), "pk", List.of(entity), List.of(), List.of(), List.of()));
            expectedReasons.add(Namespace.DEFAULT.entityBatches() + ": destination table name 'x' is not valid");
            send(producer, avro, new EntityBatch("p4", poisonSpec("nosuch", "poisoncopy", 10), "pk", List.of(entity), List.of(), List.of(), List.of()));
            expectedReasons.add(Namespace.DEFAULT.entityBatches() + ": unknown account alias 'nosuch'");
            // A bad entity (a string over 32K characters): the service answers 400, which no retry can fix.
            Entity tooLarge = new Entity("r", List.of(new Property("v", EdmType.STRING, "x".repeat(40_000), null)), null);
            send(producer, avro, new EntityBatch("p5", poisonSpec("azurite", "poisoncopy", 10), "pk", List.of(tooLarge), List.of(), List.of(), List.of()));
            expectedReasons.add(Namespace.DEFAULT.entityBatches() + ": HTTP 400 PropertyValueTooLarge");
            producer.flush();

            var spec = ScanSpecs.copy().from(new TableRef("azurite", "poisonsource"))
                    .to(new TableRef("azurite", "poisoncopy2")).pageSize(500).strategy(ScanStrategy.PREFIX).build();
            ScanStarter.start(kafka, spec);
            var totals = ScanAwait.ended(kafka, spec.getScanId(), Duration.ofMinutes(3));
            assertThat(totals.complete()).isTrue();
            assertThat(totals.itemsFailed()).isZero();
            assertThat(totals.rowsWritten()).isEqualTo(3_000);
            assertThat(TableComparer.compare(store, "poisonsource", store, "poisoncopy2").equal()).isTrue();

            Set<String> found = new HashSet<>();
            assertThat(FreePorts.await(() -> {
                found.addAll(deadLetterReasons(bootstrap, expectedReasons));
                return found.containsAll(expectedReasons);
            }, Duration.ofSeconds(60), () -> true)).as("parked: " + found).isTrue();
        }
    }

    static void send(KafkaProducer<byte[], byte[]> producer, AvroSingleObjectSerializer avro,
            org.apache.avro.specific.SpecificRecord item) {
        String topic = io.tablescan.runtime.Namespace.DEFAULT.topic(io.tablescan.runtime.ItemKind.of(item));
        producer.send(new ProducerRecord<>(topic, io.tablescan.runtime.ItemKind.key(item), avro.serialize(topic, item)));
    }

    static Properties rawProducer(String bootstrap) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        props.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        return props;
    }

    /** "topic: reason" for each expected reason that a dead letter carries, parked after its first attempt. */
    static Set<String> deadLetterReasons(String bootstrap, List<String> expected) {
        Properties props = rawProducer(bootstrap);
        props.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        Set<String> found = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Namespace.DEFAULT.deadLetters()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String topic = DeadLetters.header(r.headers(), DeadLetters.ORIGINAL_TOPIC);
                    String message = DeadLetters.header(r.headers(), DeadLetters.ERROR_MESSAGE);
                    String attempts = DeadLetters.header(r.headers(), DeadLetters.ATTEMPTS);
                    for (String reason : expected) {
                        if (reason.startsWith(topic + ": ") && message.contains(reason.substring(topic.length() + 2))) {
                            found.add("1".equals(attempts) ? reason : reason + " (after " + attempts + " attempts)");
                        }
                    }
                }
            }
        }
        return found;
    }
}
