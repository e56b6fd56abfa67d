package io.tablescan.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.items.WorkItemValidator;
import io.tablescan.items.WorkItems;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler.Result;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.Bound;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.table.Accounts;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore.FailedRequestException;
import io.tablescan.table.RetryingTableStore;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.ScriptedFailures;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The partition-worker's handler on an in-memory table: pages one partition within its budget. */
class PartitionQueryHandlerTest {
    static final ScanSpec SPEC = ScanSpec.newBuilder().setScanId("scan-p").setSource(new TableRef("src", "Source"))
            .setDestination(new TableRef("dst", "Dest")).setPageSize(10).setPageBudget(2).setCreatedAtMillis(1L)
            .build();
    /** The context of the item each test handles; it counts the item\'s retries. */
    final ItemContext context = new ItemContext(SPEC);
    /** No pause between attempts: the retries happen, without making the test wait. */
    static final RetryPolicy NO_WAIT = new RetryPolicy(3, Duration.ZERO, Duration.ZERO);

    InMemoryTableStore table;
    ScriptedFailures source;
    PartitionQueryHandler handler;

    static String rowKey(int i) {
        return String.format("r%02d", i);
    }

    @BeforeEach
    void fill() {
        table = table(Adversary.NONE);
        source = new ScriptedFailures(table);
        handler = handler(source);
    }

    /** Partition "p" of 25 rows between neighbours "o" and "q" (and an empty PartitionKey's row before them). */
    static InMemoryTableStore table(Adversary adversary) {
        InMemoryTableStore store = new InMemoryTableStore(adversary, Duration.ZERO);
        store.createTableIfNotExists("Source");
        put(store, new Row("", "r", List.of()));
        put(store, new Row("o", rowKey(99), List.of()));
        for (int i = 0; i < 25; i++) {
            put(store, new Row("p", rowKey(i), List.of(new RowProperty("N", EdmType.INT32, i))));
        }
        put(store, new Row("q", rowKey(0), List.of()));
        return store;
    }

    /** One row into the table, as a batch of its own. */
    static void put(InMemoryTableStore store, Row row) {
        store.upsert("Source", row.partitionKey(), List.of(row));
    }

    static PartitionQueryHandler handler(io.tablescan.spi.TableStore source) {
        Accounts accounts = new Accounts(name -> null).register("src", source);
        return new PartitionQueryHandler(
                new WorkerSettings(KafkaSettings.of("unused:9092"), accounts, 4, NO_WAIT, 1, Optional.empty()));
    }

    static PartitionQuery item(PartitionRange range, int depth) {
        return (PartitionQuery) WorkItems.item(SPEC, range, depth);
    }

    static List<EntityBatch> batches(Result result) {
        return result.emitted().stream().filter(EntityBatch.class::isInstance).map(EntityBatch.class::cast).toList();
    }

    static List<PartitionQuery> remainders(Result result) {
        return result.emitted().stream().filter(PartitionQuery.class::isInstance).map(PartitionQuery.class::cast).toList();
    }

    static List<String> rowKeys(List<EntityBatch> batches) {
        return batches.stream().flatMap(b -> b.getEntities().stream().map(e -> b.getPartitionKey() + "|" + e.getRowKey()))
                .toList();
    }

    static List<String> pRows(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "p|" + rowKey(i)).toList();
    }

    @Test
    void readsItsPageBudgetAndHandsOffTheRestOneLevelDeeper() {
        Result result = handler.handle(item(new PartitionRange("p", null), 3), context);

        assertThat(rowKeys(batches(result))).containsExactlyElementsOf(pRows(0, 20));
        assertThat(result.rowsRead()).isEqualTo(20);
        assertThat(result.rowsWritten()).isZero();
        assertThat(result.requests()).isEqualTo(2);
        assertThat(batches(result)).allSatisfy(b -> assertThat(b.getSpec()).isEqualTo(SPEC));
        PartitionQuery rest = remainders(result).getFirst();
        assertThat(result.emitted()).hasSize(batches(result).size() + 1);
        assertThat(rest.getPartitionKey()).isEqualTo("p");
        assertThat(rest.getDepth()).isEqualTo(4);
        assertThat(rest.getSpec()).isEqualTo(SPEC);
        WorkItemValidator.check(rest);
        PartitionRange range = WorkItems.partition(rest);
        assertThat(range.contains("p", rowKey(19))).isFalse();
        assertThat(range.contains("p", rowKey(20))).isTrue();
    }

    @Test
    void aChainCountsItsPartitionOnceOrNotAtAllWhenItContinuesOne() {
        for (String continued : new String[] {null, "p"}) {
            PartitionQuery item = (PartitionQuery) WorkItems.item(SPEC, new PartitionRange("p", null), 0, continued);
            long partitions = 0;
            while (item != null) {
                Result result = handler.handle(item, context);
                partitions += result.partitions();
                item = remainders(result).stream().findFirst().orElse(null);
                if (item != null) {
                    assertThat(item.getContinuedPartition()).as("the rest of a partition read").isEqualTo("p");
                }
            }
            assertThat(partitions).as("continued %s", continued).isEqualTo(continued == null ? 1 : 0);
        }
    }

    @Test
    void aCountEmitsNoBatches() {
        ScanSpec count = ScanSpec.newBuilder(SPEC).setCount(true).setDestination(null).build();
        Result result = handler.handle((PartitionQuery) WorkItems.item(count, new PartitionRange("p", null), 0), context);

        assertThat(batches(result)).isEmpty();
        assertThat(result.rowsRead()).isEqualTo(20);
        assertThat(remainders(result)).singleElement().satisfies(q -> assertThat(q.getSpec().getCount()).isTrue());
    }

    @Test
    void theRemainderReadsTheRestAndEndsThePartition() {
        PartitionQuery rest = remainders(handler.handle(item(new PartitionRange("p", null), 0), context)).getFirst();

        Result result = handler.handle(rest, context);

        assertThat(rowKeys(batches(result))).containsExactlyElementsOf(pRows(20, 25));
        assertThat(remainders(result)).isEmpty();
        assertThat(result.requests()).isEqualTo(1);
        assertThat(result.rowsRead()).isEqualTo(5);
    }

    @Test
    void aRowKeyBoundSkipsTheRowsAtOrBelowIt() {
        Result result = handler.handle(item(new PartitionRange("p", Bound.after(rowKey(14))), 1), context);

        assertThat(rowKeys(batches(result))).containsExactlyElementsOf(pRows(15, 25));
        assertThat(remainders(result)).isEmpty();
    }

    @Test
    void theEmptyPartitionKeyIsAPartitionLikeAnyOther() {
        Result result = handler.handle(item(new PartitionRange("", null), 1), context);

        assertThat(rowKeys(batches(result))).containsExactly("|r");
        assertThat(result.requests()).isEqualTo(1);
    }

    @Test
    void aPartitionWithoutRowsEmitsNothing() {
        Result result = handler.handle(item(new PartitionRange("pa", null), 1), context);

        assertThat(result.emitted()).isEmpty();
        assertThat(result.rowsRead()).isZero();
        assertThat(result.requests()).isEqualTo(1);
    }

    @Test
    void remaindersOfRemaindersReadThePartitionExactlyOnceThroughShortAndEmptyPages() {
        for (long seed = 1; seed <= 20; seed++) {
            PartitionQueryHandler adversarial = handler(table(new Adversary(seed, 0.3, 0.2, 0.5)));
            List<String> read = new ArrayList<>();
            Deque<PartitionQuery> items = new ArrayDeque<>(List.of(item(new PartitionRange("p", null), 0)));
            int handled = 0;
            while (!items.isEmpty()) {
                assertThat(++handled).as("seed %d: no endless chain", seed).isLessThan(200);
                Result result = adversarial.handle(items.pop(), context);
                read.addAll(rowKeys(batches(result)));
                assertThat(result.rowsRead()).isEqualTo(rowKeys(batches(result)).size());
                assertThat(result.requests()).isBetween(1, SPEC.getPageBudget());
                items.addAll(remainders(result));
            }
            assertThat(read).as("seed %d", seed).containsExactlyElementsOf(pRows(0, 25));
        }
    }

    @Test
    void aPermanentFailureIsThrownAfterOneAttempt() {
        source.failQueries(1, ScriptedFailures.forbidden());

        assertThatThrownBy(() -> handler.handle(item(new PartitionRange("p", null), 0), context))
                .isInstanceOfSatisfying(FailedRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.isTransient()).isFalse();
                    assertThat(e.attempts()).isEqualTo(1);
                });
        assertThat(source.queries()).isEqualTo(1);
    }

    @Test
    void aMissingSourceTableIsPermanent() {
        PartitionQuery missing = (PartitionQuery) WorkItems.item(
                ScanSpec.newBuilder(SPEC).setSource(new TableRef("src", "Missing")).build(), new PartitionRange("p", null), 0);

        assertThatThrownBy(() -> handler.handle(missing, context)).isInstanceOfSatisfying(TableStoreException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThat(source.queries()).isEqualTo(1);
    }

    @Test
    void aTransientFailureIsRetriedAndTheItemReadsAsUsual() {
        source.failQueries(1, ScriptedFailures.busy());

        Result result = handler.handle(item(new PartitionRange("p", null), 0), context);

        assertThat(rowKeys(batches(result))).containsExactlyElementsOf(pRows(0, 20));
        assertThat(result.requests()).as("pages read, not attempts").isEqualTo(2);
        assertThat(source.queries()).isEqualTo(3);
        assertThat(new long[] {context.retries(), context.throttles()}).as("retries and throttles").containsExactly(1, 1);
    }

    @Test
    void transientFailuresPastTheRetryBudgetAreThrownWithTheirAttempts() {
        source.failQueries(Integer.MAX_VALUE, ScriptedFailures.busy());

        assertThatThrownBy(() -> handler.handle(item(new PartitionRange("p", null), 0), context))
                .isInstanceOfSatisfying(FailedRequestException.class, e -> {
                    assertThat(e.isTransient()).isTrue();
                    assertThat(e.attempts()).isEqualTo(NO_WAIT.maxAttempts());
                });
        assertThat(source.queries()).isEqualTo(NO_WAIT.maxAttempts());
    }

    @Test
    void anItemNamingAnAccountThisWorkerDoesNotKnowFails() {
        PartitionQuery elsewhere = (PartitionQuery) WorkItems.item(
                ScanSpec.newBuilder(SPEC).setSource(new TableRef("nowhere", "Source")).build(),
                new PartitionRange("p", null), 0);

        assertThatThrownBy(() -> handler.handle(elsewhere, context)).isInstanceOf(Accounts.UnknownAccountException.class)
                .hasMessageContaining("nowhere");
        assertThat(source.queries()).isZero();
    }

    @Test
    void itHandlesPartitionQueries() {
        assertThat(handler.type()).isEqualTo(PartitionQuery.class);
    }
}
