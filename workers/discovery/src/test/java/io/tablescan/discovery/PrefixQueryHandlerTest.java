package io.tablescan.discovery;

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
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.table.Accounts;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore.FailedRequestException;
import io.tablescan.table.RetryingTableStore;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.testkit.InMemoryTableStore.Adversary;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.ScriptedFailures;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The discovery-worker's handler on an in-memory table: one bounded prefix step per item. */
class PrefixQueryHandlerTest {
    static final ScanSpec SPEC = ScanSpec.newBuilder().setScanId("scan-d").setSource(new TableRef("src", "Source"))
            .setDestination(new TableRef("dst", "Dest")).setPageSize(10).setPageBudget(2).setCreatedAtMillis(1L)
            .build();
    /** The context of the item each test handles; it counts the item\'s retries. */
    final ItemContext context = new ItemContext(SPEC);
    static final RetryPolicy NO_WAIT = new RetryPolicy(3, Duration.ZERO, Duration.ZERO);
    static final String[] ODD_KEYS = {"", "'", "O'Brien", "a", "a\uFFFF", "a\uFFFFb", "\uD83D\uDE00", "\uFFFF"};

    InMemoryTableStore table;
    ScriptedFailures source;
    PrefixQueryHandler handler;

    @BeforeEach
    void fill() {
        table = table(Adversary.NONE);
        assertThat(table.rows("Source")).hasSize(163);
        source = new ScriptedFailures(table);
        handler = handler(source);
    }

    /** Odd PartitionKeys, 40 small partitions of 1 to 5 rows, and one partition of 35 rows: 163 rows in all. */
    static InMemoryTableStore table(Adversary adversary) {
        InMemoryTableStore store = new InMemoryTableStore(adversary, Duration.ZERO);
        store.createTableIfNotExists("Source");
        int n = 0;
        for (String pk : ODD_KEYS) {
            put(store, row(pk, "r", n++));
        }
        for (int p = 0; p < 40; p++) {
            for (int r = 0; r <= p % 5; r++) {
                put(store, row(String.format("k%03d", p), "r" + r, n++));
            }
        }
        for (int r = 0; r < 35; r++) {
            put(store, row("big", String.format("%03d", r), n++));
        }
        return store;
    }

    /** One row into the table, as a batch of its own. */
    static void put(InMemoryTableStore store, Row row) {
        store.upsert("Source", row.partitionKey(), List.of(row));
    }

    static Row row(String pk, String rk, int n) {
        return new Row(pk, rk, List.of(new RowProperty("N", EdmType.INT32, n), new RowProperty("Name", EdmType.STRING, "#" + n)));
    }

    static PrefixQueryHandler handler(TableStore source) {
        Accounts accounts = new Accounts(name -> null).register("src", source);
        return new PrefixQueryHandler(
                new WorkerSettings(KafkaSettings.of("unused:9092"), accounts, 4, NO_WAIT, 1, Optional.empty()));
    }

    static <T> List<T> emitted(Result result, Class<T> type) {
        return result.emitted().stream().filter(type::isInstance).map(type::cast).toList();
    }

    static List<String> keys(List<EntityBatch> batches) {
        return batches.stream().flatMap(b -> b.getEntities().stream().map(e -> b.getPartitionKey() + "|" + e.getRowKey()))
                .toList();
    }

    List<String> tableKeys() {
        return table.rows("Source").stream().map(r -> r.partitionKey() + "|" + r.rowKey()).toList();
    }

    static PrefixQuery root(UnaryOperator<ScanSpec.Builder> change) {
        return WorkItems.root(change.apply(ScanSpec.newBuilder(SPEC)).build());
    }

    @Test
    void theRootEmitsTheRowsItReadAsBatchesAndTheRestAsItemsOneLevelDeeper() {
        Result result = handler.handle(WorkItems.root(SPEC), context);

        List<String> read = keys(emitted(result, EntityBatch.class));
        assertThat(read).isNotEmpty().containsExactlyElementsOf(tableKeys().subList(0, read.size()));
        assertThat(result.rowsRead()).isEqualTo(read.size());
        assertThat(result.rowsWritten()).isZero();
        assertThat(result.requests()).isBetween(1, SPEC.getPageBudget());
        List<SpecificRecord> handoffs = result.emitted().stream().filter(r -> !(r instanceof EntityBatch)).toList();
        assertThat(handoffs).isNotEmpty().allSatisfy(item -> {
            WorkItemValidator.check(item);
            assertThat(item).isInstanceOfAny(PrefixQuery.class, PartitionQuery.class);
        });
        assertThat(emitted(result, PrefixQuery.class)).allSatisfy(q -> {
            assertThat(q.getDepth()).isEqualTo(1);
            assertThat(q.getSpec()).isEqualTo(SPEC);
        });
        assertThat(emitted(result, PartitionQuery.class)).allSatisfy(q -> assertThat(q.getDepth()).isEqualTo(1));
    }

    @Test
    void handingOffIsOneLevelBelowTheItemsDepth() {
        PrefixQuery deep = WorkItems.root(SPEC);
        deep.setDepth(5);

        Result result = handler.handle(deep, context);

        assertThat(emitted(result, PrefixQuery.class)).isNotEmpty().allSatisfy(q -> assertThat(q.getDepth()).isEqualTo(6));
    }

    @Test
    void everyRowIsReadOnceOrLeftToExactlyOnePartitionQuery() {
        for (long seed = 0; seed <= 10; seed++) {
            Adversary adversary = seed == 0 ? Adversary.NONE : new Adversary(seed, 0.3, 0.2, 0.5);
            PrefixQueryHandler adversarial = handler(table(adversary));
            List<String> read = new ArrayList<>();
            List<PartitionQuery> partitions = new ArrayList<>();
            Deque<PrefixQuery> items = new ArrayDeque<>(List.of(WorkItems.root(SPEC)));
            int handled = 0;
            while (!items.isEmpty()) {
                assertThat(++handled).as("seed %d: no endless scan", seed).isLessThan(2_000);
                PrefixQuery item = items.pop();
                Result result = adversarial.handle(item, context);
                read.addAll(keys(emitted(result, EntityBatch.class)));
                assertThat(result.rowsRead()).isEqualTo(keys(emitted(result, EntityBatch.class)).size());
                assertThat(result.requests()).isBetween(1, SPEC.getPageBudget());
                partitions.addAll(emitted(result, PartitionQuery.class));
                items.addAll(emitted(result, PrefixQuery.class));
            }
            for (String key : tableKeys()) {
                String pk = key.substring(0, key.indexOf('|'));
                String rk = key.substring(key.indexOf('|') + 1);
                long left = partitions.stream().filter(q -> WorkItems.partition(q).contains(pk, rk)).count();
                assertThat(Collections.frequency(read, key) + left).as("seed %d, row %s", seed, key).isEqualTo(1);
            }
        }
    }

    @Test
    void thePartitionQueryOfAPageEndingInsideAPartitionCarriesThatPartitionAsCounted() {
        // The first page of 10 rows: the 6 odd keys below "big", then 4 rows of "big".
        Result result = handler.handle(WorkItems.root(SPEC), context);

        assertThat(result.partitions()).isEqualTo(7);
        assertThat(emitted(result, PartitionQuery.class)).singleElement().satisfies(q -> {
            assertThat(q.getPartitionKey()).isEqualTo("big");
            assertThat(q.getContinuedPartition()).isEqualTo("big");
        });
        assertThat(emitted(result, PrefixQuery.class)).isNotEmpty()
                .allSatisfy(q -> assertThat(q.getContinuedPartition()).isNull());
    }

    @Test
    void aCountEmitsNoBatchesAndItsSerialChainCountsEachPartitionOnce() {
        for (long seed = 0; seed <= 5; seed++) {
            Adversary adversary = seed == 0 ? Adversary.NONE : new Adversary(seed, 0.3, 0.2, 0.5);
            PrefixQueryHandler adversarial = handler(table(adversary));
            PrefixQuery item = root(b -> b.setStrategy(ScanStrategy.SERIAL).setCount(true).setDestination(null));
            long rows = 0;
            long partitions = 0;
            while (item != null) {
                Result result = adversarial.handle(item, context);
                assertThat(result.emitted()).as("seed %d", seed).noneMatch(EntityBatch.class::isInstance);
                rows += result.rowsRead();
                partitions += result.partitions();
                List<PrefixQuery> next = emitted(result, PrefixQuery.class);
                item = next.isEmpty() ? null : next.getFirst();
            }
            assertThat(rows).as("seed %d", seed).isEqualTo(163);
            assertThat(partitions).as("seed %d: 8 odd keys, 40 small partitions and big", seed).isEqualTo(49);
        }
    }

    @Test
    void theSerialStrategyReadsItsBudgetAndHandsOffOneRemainder() {
        List<String> read = new ArrayList<>();
        PrefixQuery item = root(b -> b.setStrategy(ScanStrategy.SERIAL));
        int chain = 0;
        while (item != null) {
            Result result = handler.handle(item, context);
            chain++;
            read.addAll(keys(emitted(result, EntityBatch.class)));
            assertThat(emitted(result, PartitionQuery.class)).isEmpty();
            List<PrefixQuery> next = emitted(result, PrefixQuery.class);
            assertThat(next).hasSizeLessThanOrEqualTo(1);
            item = next.isEmpty() ? null : next.getFirst();
        }

        assertThat(read).containsExactlyElementsOf(tableKeys());
        int perItem = SPEC.getPageSize() * SPEC.getPageBudget();
        assertThat(chain).isEqualTo((163 + perItem - 1) / perItem);
    }

    @Test
    void theScansProjectionAndRowFilterShapeTheBatches() {
        // N counts rows as loaded: N 158 to 162 are the last five rows of partition "big".
        Result result = handler.handle(root(b -> b.setSelect(List.of("Name")).setRowFilter("N ge 158")), context);

        List<EntityBatch> batches = emitted(result, EntityBatch.class);
        assertThat(keys(batches)).containsExactly("big|030", "big|031", "big|032", "big|033", "big|034");
        assertThat(batches).flatExtracting(EntityBatch::getEntities).allSatisfy(e ->
                assertThat(e.getProperties()).extracting(io.tablescan.schema.Property::getName).containsExactly("Name"));
    }

    @Test
    void anEmptyTableCostsOneRequestAndEmitsNothing() {
        table.createTableIfNotExists("Empty");
        Result result = handler.handle(root(b -> b.setSource(new TableRef("src", "Empty"))), context);

        assertThat(result.emitted()).isEmpty();
        assertThat(result.requests()).isEqualTo(1);
    }

    @Test
    void aPermanentFailureIsThrownAfterOneAttempt() {
        source.failQueries(1, ScriptedFailures.forbidden());

        assertThatThrownBy(() -> handler.handle(WorkItems.root(SPEC), context))
                .isInstanceOfSatisfying(FailedRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.attempts()).isEqualTo(1);
                });
        assertThat(source.queries()).isEqualTo(1);
    }

    @Test
    void aMissingSourceTableIsPermanent() {
        assertThatThrownBy(() -> handler.handle(root(b -> b.setSource(new TableRef("src", "Missing"))), context))
                .isInstanceOfSatisfying(TableStoreException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.isTransient()).isFalse();
                });
        assertThat(source.queries()).isEqualTo(1);
    }

    @Test
    void aTransientFailureIsRetriedAndEmitsTheSameItems() {
        List<String> expected = handler.handle(WorkItems.root(SPEC), context).emitted().stream().map(PrefixQueryHandlerTest::id).toList();
        ScriptedFailures flaky = new ScriptedFailures(table).failQueries(1, ScriptedFailures.busy());

        Result result = handler(flaky).handle(WorkItems.root(SPEC), context);

        assertThat(result.emitted()).extracting(PrefixQueryHandlerTest::id).containsExactlyElementsOf(expected);
        assertThat(flaky.queries()).isEqualTo(result.requests() + 1);
        assertThat(new long[] {context.retries(), context.throttles()}).as("retries and throttles").containsExactly(1, 1);
    }

    @Test
    void transientFailuresPastTheRetryBudgetAreThrownWithTheirAttempts() {
        source.failQueries(Integer.MAX_VALUE, ScriptedFailures.busy());

        assertThatThrownBy(() -> handler.handle(WorkItems.root(SPEC), context))
                .isInstanceOfSatisfying(FailedRequestException.class, e -> {
                    assertThat(e.isTransient()).isTrue();
                    assertThat(e.attempts()).isEqualTo(NO_WAIT.maxAttempts());
                });
    }

    @Test
    void anItemNamingAnAccountThisWorkerDoesNotKnowFails() {
        assertThatThrownBy(() -> handler.handle(root(b -> b.setSource(new TableRef("nowhere", "Source"))), context))
                .isInstanceOf(Accounts.UnknownAccountException.class).hasMessageContaining("nowhere");
        assertThat(source.queries()).isZero();
    }

    static String id(SpecificRecord item) {
        return switch (item) {
            case EntityBatch b -> b.getItemId();
            case PrefixQuery q -> q.getItemId();
            case PartitionQuery q -> q.getItemId();
            default -> throw new IllegalArgumentException(item.toString());
        };
    }
}
