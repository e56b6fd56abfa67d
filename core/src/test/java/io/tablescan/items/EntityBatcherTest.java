package io.tablescan.items;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.Entity;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.serde.AvroSingleObjectSerializer;
import io.tablescan.sink.Rows;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How the rows of a page are cut into entity batches: one partition, at most 100 rows, a bounded payload. */
class EntityBatcherTest {
    static final ScanSpec SPEC = ScanSpec.newBuilder().setScanId("scan-b").setSource(new TableRef("src", "Source"))
            .setDestination(new TableRef("dst", "Dest")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1L)
            .build();
    static final int KIB_64 = 64 * 1024;

    static Row row(String pk, String rk, RowProperty... properties) {
        return new Row(pk, rk, List.of(properties));
    }

    static List<Row> partition(String pk, int rows, RowProperty... properties) {
        List<Row> list = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            list.add(row(pk, String.format("r%05d", i), properties));
        }
        return list;
    }

    static RowProperty binary(String name, int bytes) {
        return new RowProperty(name, EdmType.BINARY, new byte[bytes]);
    }

    static RowProperty string(String name, int chars) {
        return new RowProperty(name, EdmType.STRING, "x".repeat(chars));
    }

    /** The rows of the batches, in batch order, as "pk|rk". */
    static List<String> keys(List<EntityBatch> batches) {
        return batches.stream()
                .flatMap(b -> b.getEntities().stream().map(e -> b.getPartitionKey() + "|" + e.getRowKey()))
                .toList();
    }

    static List<String> keysOf(List<Row> rows) {
        return rows.stream().map(r -> r.partitionKey() + "|" + r.rowKey()).toList();
    }

    /**
     * A lower bound on a batch's request payload: each key percent-encoded (UTF-8) in its operation's URL and
     * again in the JSON body, each binary as base64, each string as UTF-8.
     */
    static long minimumRequestBytes(EntityBatch batch) {
        long bytes = 0;
        for (Entity e : batch.getEntities()) {
            for (String key : new String[] {batch.getPartitionKey(), e.getRowKey()}) {
                bytes += URLEncoder.encode(key, StandardCharsets.UTF_8).length() + key.getBytes(StandardCharsets.UTF_8).length;
            }
            for (io.tablescan.schema.Property p : e.getProperties()) {
                if (p.getValue() instanceof ByteBuffer b) {
                    bytes += Base64.getEncoder().encode(b.duplicate()).remaining();
                } else if (p.getValue() instanceof CharSequence s) {
                    bytes += s.toString().getBytes(StandardCharsets.UTF_8).length;
                }
            }
        }
        return bytes;
    }

    @Test
    void smallRowsOfOnePartitionGoInBatchesOfAtMostOneHundred() {
        List<Row> rows = partition("p", 250, string("Name", 10));

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(batches).extracting(b -> b.getEntities().size()).containsExactly(100, 100, 50);
        assertThat(batches).allSatisfy(b -> assertThat(b.getPartitionKey()).isEqualTo("p"));
        assertThat(keys(batches)).containsExactlyElementsOf(keysOf(rows));
        assertThat(batches).allSatisfy(b -> assertThat(b.getSpec()).isEqualTo(SPEC));
    }

    @Test
    void aNewPartitionStartsANewBatch() {
        List<Row> rows = new ArrayList<>(partition("a", 3));
        rows.addAll(partition("b", 1));
        rows.addAll(partition("c", 2));

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(batches).extracting(EntityBatch::getPartitionKey).containsExactly("a", "b", "c");
        assertThat(batches).extracting(b -> b.getEntities().size()).containsExactly(3, 1, 2);
    }

    @Test
    void rowBatchesAreTheRowsOfTheEntityBatches() {
        List<Row> rows = new ArrayList<>(partition("a", 150, string("Name", 10)));
        rows.addAll(partition("b", 2));
        rows.addAll(partition("c", 100, binary("Blob", KIB_64)));

        List<List<Row>> rowBatches = EntityBatcher.rowBatches(rows);

        assertThat(rowBatches.stream().map(EntityBatcherTest::keysOf).toList())
                .isEqualTo(EntityBatcher.batches(SPEC, rows).stream().map(b -> keys(List.of(b))).toList());
    }

    @Test
    void noRowsMakeNoBatches() {
        assertThat(EntityBatcher.batches(SPEC, List.of())).isEmpty();
    }

    @Test
    void rowsWithLargeBinariesSplitIntoMoreBatchesThatFitOneTransaction() {
        List<Row> rows = partition("p", 100, binary("Blob", KIB_64));

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(batches).hasSizeGreaterThan(1);
        assertThat(keys(batches)).containsExactlyElementsOf(keysOf(rows));
        assertThat(batches).allSatisfy(b -> assertThat(minimumRequestBytes(b)).isLessThan(4L * 1024 * 1024));
    }

    @Test
    void rowsWithLargeStringsSplitIntoMoreBatchesThatFitOneTransaction() {
        List<Row> rows = partition("p", 100, string("Text", KIB_64 / 2), string("More", KIB_64 / 2));

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(batches).hasSizeGreaterThan(1);
        assertThat(keys(batches)).containsExactlyElementsOf(keysOf(rows));
        assertThat(batches).allSatisfy(b -> assertThat(minimumRequestBytes(b)).isLessThan(4L * 1024 * 1024));
    }

    @Test
    void everyBatchOfLargeRowsSerializesWellUnderTheTopicsMaxMessageSize() {
        List<Row> rows = new ArrayList<>(partition("p", 60, binary("Blob", KIB_64), string("Text", KIB_64 / 2)));
        rows.addAll(partition("q", 60, string("Text", KIB_64 / 2), string("Other", KIB_64 / 2)));
        AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();

        for (EntityBatch batch : EntityBatcher.batches(SPEC, rows)) {
            int bytes = serializer.serialize(Namespace.DEFAULT.entityBatches(), batch).length;
            assertThat(bytes).isLessThan(Topics.MAX_MESSAGE_BYTES / 2);
        }
    }

    @Test
    void oneMebibyteEntitiesFitTheirBatchesAndTheMessageSize() {
        List<RowProperty> big = new ArrayList<>();
        for (int i = 0; i < 15; i++) { // 15 x 64 KiB: about the service's 1 MiB limit for an entity
            big.add(binary("B" + i, KIB_64));
        }
        List<Row> rows = List.of(row("p", "a"), new Row("p", "big1", big), new Row("p", "big2", big),
                new Row("p", "big3", big), row("p", "z"));

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(batches).hasSizeGreaterThan(1);
        assertThat(keys(batches)).containsExactly("p|a", "p|big1", "p|big2", "p|big3", "p|z");
        AvroSingleObjectSerializer serializer = new AvroSingleObjectSerializer();
        assertThat(batches).allSatisfy(b -> {
            assertThat(minimumRequestBytes(b)).isLessThan(4L * 1024 * 1024);
            assertThat(serializer.serialize(Namespace.DEFAULT.entityBatches(), b).length).isLessThan(Topics.MAX_MESSAGE_BYTES);
        });
    }

    @Test
    void anEntityWhoseEstimateAloneExceedsTheBudgetIsStillEmittedAlone() {
        // 1 MiB of 1-byte characters: estimated at 6 bytes each (escapes), more than the whole budget.
        List<RowProperty> huge = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            huge.add(string("S" + i, KIB_64));
        }
        Row hugeRow = new Row("p", "huge", huge);
        assertThat(EntityBatcher.estimate(hugeRow)).isGreaterThan(EntityBatcher.MAX_PAYLOAD_BYTES);

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, List.of(row("p", "a"), hugeRow, row("p", "z")));

        assertThat(batches).extracting(b -> b.getEntities().size()).containsExactly(1, 1, 1);
        assertThat(keys(batches)).containsExactly("p|a", "p|huge", "p|z");
    }

    @Test
    void rowsWithLongNonAsciiKeysStillFitOneTransaction() {
        String partitionKey = "\u4e2d".repeat(512); // 1 KiB in UTF-16, the longest key the service takes
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(row(partitionKey, "\u4e2d".repeat(509) + String.format("%03d", i), binary("Data", 23_700)));
        }

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(keys(batches)).containsExactlyElementsOf(keysOf(rows));
        assertThat(batches).allSatisfy(b -> assertThat(minimumRequestBytes(b)).isLessThan(4L * 1024 * 1024));
    }

    @Test
    void batchIdsAreDeterministicAndDistinct() {
        List<Row> rows = new ArrayList<>(partition("a", 150));
        rows.addAll(partition("b", 10));

        List<String> ids = EntityBatcher.batches(SPEC, rows).stream().map(EntityBatch::getItemId).toList();

        assertThat(ids).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).startsWith("batch-"));
        assertThat(EntityBatcher.batches(SPEC, rows).stream().map(EntityBatch::getItemId).toList())
                .containsExactlyElementsOf(ids);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void everyRowExactlyOnceInOrderWithinBounds(long seed) {
        List<Row> rows = page(new Random(seed));

        List<EntityBatch> batches = EntityBatcher.batches(SPEC, rows);

        assertThat(keys(batches)).containsExactlyElementsOf(keysOf(rows));
        for (EntityBatch b : batches) {
            assertThat(b.getEntities()).isNotEmpty().hasSizeLessThanOrEqualTo(EntityBatcher.MAX_ROWS);
            assertThat(b.getEntities().size() == 1 || estimate(b) <= EntityBatcher.MAX_PAYLOAD_BYTES)
                    .as("a batch of several rows stays within the payload budget").isTrue();
            assertThat(minimumRequestBytes(b)).isLessThan(4L * 1024 * 1024);
        }
        for (int i = 1; i < batches.size(); i++) {
            EntityBatch previous = batches.get(i - 1);
            EntityBatch next = batches.get(i);
            if (!previous.getPartitionKey().equals(next.getPartitionKey())) { // a partition's batches are adjacent
                assertThat(batches.subList(i, batches.size()))
                        .noneMatch(b -> b.getPartitionKey().equals(previous.getPartitionKey()));
            } else { // and split only when needed: the next row did not fit the previous batch
                long withNext = estimate(previous) + estimate(next.getPartitionKey(), next.getEntities().get(0));
                assertThat(previous.getEntities().size() == EntityBatcher.MAX_ROWS
                        || withNext > EntityBatcher.MAX_PAYLOAD_BYTES).as("batch %d was cut needlessly", i - 1).isTrue();
            }
        }
    }

    static long estimate(String partitionKey, Entity e) {
        return EntityBatcher.estimate(new Row(partitionKey, e.getRowKey(), Rows.of(e.getProperties())));
    }

    static long estimate(EntityBatch b) {
        return b.getEntities().stream().mapToLong(e -> estimate(b.getPartitionKey(), e)).sum();
    }

    /** A page as a query returns it: rows in key order, up to 5 partitions, some rows with 32-64 KiB values. */
    static List<Row> page(Random random) {
        List<Row> rows = new ArrayList<>();
        int partitions = random.nextInt(6);
        for (int p = 0; p < partitions; p++) {
            int size = 1 + random.nextInt(260);
            for (int r = 0; r < size; r++) {
                int value = random.nextInt(10) == 0 ? KIB_64 / 2 + random.nextInt(KIB_64 / 2) : random.nextInt(300);
                String rk = String.format("%04d", r);
                rows.add(random.nextBoolean() ? row("p" + p, rk, binary("B", value)) : row("p" + p, rk, string("S", value / 2)));
            }
        }
        return rows;
    }
}
