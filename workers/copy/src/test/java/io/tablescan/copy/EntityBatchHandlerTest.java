package io.tablescan.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.items.EntityBatcher;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.DeleteJob;
import io.tablescan.jobs.MirrorJob;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler.Result;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.FailedWriteException;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.Counters;
import io.tablescan.table.Accounts;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.ScriptedFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The copy-worker's handler on in-memory tables: writes one batch to the scan's destination account. */
class EntityBatchHandlerTest {
    static final ScanSpec SPEC = ScanSpec.newBuilder().setScanId("scan-c").setSource(new TableRef("src", "Source"))
            .setDestination(new TableRef("dst", "Dest")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1L)
            .build();
    /** The context of the item each test handles; it counts the item\'s retries. */
    final ItemContext context = new ItemContext(SPEC);
    static final RetryPolicy NO_WAIT = new RetryPolicy(3, Duration.ZERO, Duration.ZERO);

    InMemoryTableStore sourceAccount;
    InMemoryTableStore destinationAccount;
    ScriptedFailures destination;
    EntityBatchHandler handler;

    @BeforeEach
    void accounts() {
        sourceAccount = new InMemoryTableStore();
        destinationAccount = new InMemoryTableStore();
        destinationAccount.createTableIfNotExists("Dest");
        destination = new ScriptedFailures(destinationAccount);
        Accounts accounts = new Accounts(name -> null).register("src", sourceAccount).register("dst", destination);
        handler = new EntityBatchHandler(
                new WorkerSettings(KafkaSettings.of("unused:9092"), accounts, 4, NO_WAIT, 1, Optional.empty()));
    }

    static List<Row> rows(String pk, int n) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Row(pk, String.format("r%03d", i), List.of(
                    new RowProperty("Name", EdmType.STRING, "row " + i),
                    new RowProperty("Big", EdmType.INT64, 1L << 40 | i),
                    new RowProperty("Ratio", EdmType.DOUBLE, Double.NaN),
                    new RowProperty("Data", EdmType.BINARY, new byte[] {(byte) i, 0, -1}))));
        }
        return rows;
    }

    static EntityBatch batch(ScanSpec spec, List<Row> rows) {
        List<EntityBatch> batches = EntityBatcher.batches(spec, rows);
        assertThat(batches).hasSize(1);
        return batches.getFirst();
    }

    @Test
    void writesTheBatchsRowsToTheDestinationAccountsTable() {
        List<Row> rows = rows("p'1", 30);

        Result result = handler.handle(batch(SPEC, rows), context);

        assertThat(destinationAccount.rows("Dest")).containsExactlyElementsOf(rows);
        assertThat(result.emitted()).isEmpty();
        assertThat(result.rowsWritten()).isEqualTo(30);
        assertThat(result.rowsRead()).isZero();
        assertThat(result.requests()).isEqualTo(1);
        assertThat(destination.upserts()).isEqualTo(1);
        assertThat(sourceAccount.requests()).as("the source account is not touched").isZero();
    }

    /**
     * A mirror's deletes of destination rows, conditional on the ETags the comparer read: a row written since is
     * kept and counted as skipped, one gone already (a replay's) counts as deleted; the replay counts the same.
     */
    @Test
    void aMirrorsDeletesKeepARowChangedSinceReadAndCountAReplayAlike() {
        ScanSpec mirror = Jobs.name(ScanSpec.newBuilder(SPEC), Jobs.named(MirrorJob.NAME), java.util.Map.of()).build();
        destinationAccount.upsert("Dest", "p", rows("p", 5));
        List<Row> read = destinationAccount.query("Dest", io.tablescan.spi.KeyRange.ALL,
                new io.tablescan.spi.QueryOptions(1000, List.of(), null), null).rows();
        Row changed = new Row("p", "r001", List.of(new RowProperty("New", EdmType.BOOLEAN, true)));
        destinationAccount.upsert("Dest", "p", List.of(changed));
        destinationAccount.delete("Dest", "p", "r003");
        EntityBatch deletes = EntityBatcher.deletes(mirror, read).getFirst();
        assertThat(deletes.getDeleteEtags()).hasSize(5).doesNotContainNull();

        Result result = handler.handle(deletes, context);
        Result replay = handler.handle(deletes, context);

        assertThat(destinationAccount.rows("Dest")).containsExactly(changed);
        assertThat(result.counters()).isEqualTo(java.util.Map.of(Counters.DELETED, 4L, Counters.SKIPPED, 1L));
        assertThat(result.requests()).as("refused for r001, for r003, a read of the rows left, the rest").isEqualTo(4);
        assertThat(replay.counters()).isEqualTo(result.counters());
        assertThat(replay.requests()).as("refused for r000, a read of the rows left, refused for r001").isEqualTo(3);
        assertThat(sourceAccount.requests()).isZero();
    }

    /** A delete job's batches delete from its source table, the same way. */
    @Test
    void aDeleteJobsBatchesDeleteFromTheSource() {
        ScanSpec delete = Jobs.name(ScanSpec.newBuilder(SPEC).setSource(new TableRef("src", "Source"))
                .setDestination(null), Jobs.named(DeleteJob.NAME), java.util.Map.of(DeleteJob.ALL, "true")).build();
        sourceAccount.createTableIfNotExists("Source");
        sourceAccount.upsert("Source", "p", rows("p", 3));
        List<Row> read = sourceAccount.rows("Source");

        Result result = handler.handle(EntityBatcher.deletes(delete, read).getFirst(), context);

        assertThat(sourceAccount.rows("Source")).isEmpty();
        assertThat(result.counters()).isEqualTo(java.util.Map.of(Counters.DELETED, 3L));
    }

    /** Deletes in a spec of a job that deletes nothing (a copy, a delete's dry run) are refused: nothing deleted. */
    @Test
    void aDeleteBatchOfAJobThatDeletesNothingIsRefused() {
        ScanSpec copy = Jobs.name(ScanSpec.newBuilder(SPEC), Jobs.named("copy"), java.util.Map.of()).build();
        destinationAccount.upsert("Dest", "p", rows("p", 2));

        assertThatThrownBy(() -> handler.handle(EntityBatcher.deletes(copy, rows("p", 2)).getFirst(), context))
                .hasMessageContaining("a delete batch of a copy, which deletes nothing");
        assertThat(destinationAccount.rows("Dest")).hasSize(2);
    }

    @Test
    void aReplayedBatchReplacesTheSameRows() {
        List<Row> rows = rows("p", 5);
        Row stale = new Row("p", "r002", List.of(new RowProperty("Old", EdmType.BOOLEAN, true)));
        destinationAccount.upsert("Dest", "p", List.of(stale));

        handler.handle(batch(SPEC, rows), context);
        handler.handle(batch(SPEC, rows), context);

        assertThat(destinationAccount.rows("Dest")).as("the stale row replaced, no property kept")
                .containsExactlyElementsOf(rows);
    }

    @Test
    void aMissingDestinationTableIsCreatedOnTheFirstWrite() {
        ScanSpec elsewhere = ScanSpec.newBuilder(SPEC).setDestination(new TableRef("dst", "NewTable")).build();
        List<Row> rows = rows("p", 3);

        Result result = handler.handle(batch(elsewhere, rows), context);

        assertThat(destinationAccount.rows("NewTable")).containsExactlyElementsOf(rows);
        assertThat(result.rowsWritten()).isEqualTo(3);
        assertThat(result.requests()).as("failed write, create, write").isEqualTo(3);
        assertThat(destination.creates()).isEqualTo(1);
    }

    /**
     * Only the service's own 404 (TableNotFound) means the destination table is missing: a 404 without its error code
     * (a wrong path in the endpoint, a proxy) fails the write as it is, in the replace and merge modes (the
     * scripted failures reach no conditional write), and creates nothing.
     */
    @Test
    void aNotFoundWithoutTheServicesCodeCreatesNoTable() {
        TableStoreException proxy = new TableStoreException("HTTP 404 on table Dest (scripted)", 404, false, null);
        ScanSpec merge = Jobs.name(ScanSpec.newBuilder(SPEC), Jobs.named(io.tablescan.jobs.CopyJob.NAME),
                java.util.Map.of("write-mode", "merge")).build();
        for (ScanSpec spec : List.of(SPEC, merge)) {
            destination.failUpserts(1, proxy, false);

            assertThatThrownBy(() -> handler.handle(batch(spec, rows("p", 3)), context))
                    .rootCause().isInstanceOfSatisfying(TableStoreException.class,
                            c -> assertThat(c.status()).isEqualTo(404));
        }

        assertThat(destination.creates()).isZero();
        assertThat(destinationAccount.rows("Dest")).isEmpty();
    }

    @Test
    void aScanWithoutADestinationWritesNothing() {
        ScanSpec noSink = ScanSpec.newBuilder(SPEC).setDestination(null).build();

        Result result = handler.handle(batch(noSink, rows("p", 3)), context);

        assertThat(result).isEqualTo(new Result(List.of(), 0, 0, 0));
        assertThat(destination.upserts()).isZero();
        assertThat(destinationAccount.rows("Dest")).isEmpty();
    }

    @Test
    void aPermanentFailureIsThrownAfterOneAttemptAndCreatesNoTable() {
        destination.failUpserts(1, ScriptedFailures.forbidden(), false);

        assertThatThrownBy(() -> handler.handle(batch(SPEC, rows("p", 3)), context))
                .isInstanceOfSatisfying(FailedWriteException.class, e -> {
                    assertThat(e.isTransient()).isFalse();
                    assertThat(e).rootCause().isInstanceOfSatisfying(TableStoreException.class,
                            cause -> assertThat(cause.status()).isEqualTo(403));
                    assertThat(e.attempts()).isEqualTo(1);
                });
        assertThat(destination.upserts()).isEqualTo(1);
        assertThat(destination.creates()).isZero();
        assertThat(destinationAccount.rows("Dest")).isEmpty();
    }

    @Test
    void aTimeoutAfterTheServiceAppliedTheWriteIsRetriedAndLeavesEachRowOnce() {
        destination.failUpserts(1, ScriptedFailures.timeout(), true);
        List<Row> rows = rows("p", 10);

        Result result = handler.handle(batch(SPEC, rows), context);

        assertThat(destinationAccount.rows("Dest")).containsExactlyElementsOf(rows);
        assertThat(result.rowsWritten()).isEqualTo(10);
        assertThat(destination.upserts()).isEqualTo(2);
        assertThat(new long[] {context.retries(), context.throttles()}).as("one retry, no throttling").containsExactly(1, 0);
    }

    @Test
    void transientFailuresPastTheRetryBudgetAreThrownWithTheirAttempts() {
        destination.failUpserts(Integer.MAX_VALUE, ScriptedFailures.busy(), false);

        assertThatThrownBy(() -> handler.handle(batch(SPEC, rows("p", 3)), context))
                .isInstanceOfSatisfying(FailedWriteException.class, e -> {
                    assertThat(e.isTransient()).isTrue();
                    assertThat(e.isThrottled()).as("503 is the service asking to slow down").isTrue();
                    assertThat(e).rootCause().isInstanceOfSatisfying(TableStoreException.class,
                            cause -> assertThat(cause.status()).isEqualTo(503));
                    assertThat(e.attempts()).isEqualTo(NO_WAIT.maxAttempts());
                });
        assertThat(destination.upserts()).isEqualTo(NO_WAIT.maxAttempts());
        assertThat(destination.creates()).isZero();
    }

    @Test
    void aBatchForAnAccountThisWorkerDoesNotKnowFails() {
        ScanSpec unknown = ScanSpec.newBuilder(SPEC).setDestination(new TableRef("nowhere", "Dest")).build();

        assertThatThrownBy(() -> handler.handle(batch(unknown, rows("p", 1)), context))
                .isInstanceOf(Accounts.UnknownAccountException.class).hasMessageContaining("nowhere");
    }
}
