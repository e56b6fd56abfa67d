package io.tablescan.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.items.EntityBatcher;
import io.tablescan.items.EntityPages;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler.Result;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.KeyBound;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.sink.FailedWriteException;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import io.tablescan.testkit.InMemoryTableStore;
import io.tablescan.testkit.ScriptedFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The copy-worker's handler of entity pages: each part one transaction, the page done when all are. */
class EntityRecordHandlerTest {
    static final ScanSpec SPEC = EntityBatchHandlerTest.SPEC;
    static final int SLOTS = 2;

    final ItemContext context = new ItemContext(SPEC);
    InMemoryTableStore destinationAccount;
    ScriptedFailures destination;
    ConcurrentWrites counted;
    EntityRecordHandler handler;

    @BeforeEach
    void accounts() {
        destinationAccount = new InMemoryTableStore();
        destinationAccount.createTableIfNotExists("Dest");
        destination = new ScriptedFailures(destinationAccount);
        counted = new ConcurrentWrites(destination, destinationAccount);
        Accounts accounts = new Accounts(name -> null).register("src", new InMemoryTableStore()).register("dst", counted);
        WorkerSettings settings = new WorkerSettings(KafkaSettings.of("unused:9092"), accounts, SLOTS,
                EntityBatchHandlerTest.NO_WAIT, 1, Optional.empty());
        handler = new EntityRecordHandler(new EntityBatchHandler(settings), SLOTS);
    }

    /** Small partitions of 1 to 8 rows, and one of 150 (two transactions). */
    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < 30; p++) {
            rows.addAll(EntityBatchHandlerTest.rows(String.format("p%02d", p), 1 + p % 8));
        }
        rows.addAll(EntityBatchHandlerTest.rows("zbig", 150));
        return rows;
    }

    static EntityPage page(ScanSpec spec, List<Row> rows) {
        List<SpecificRecord> pages = EntityPages.pack(List.copyOf(EntityBatcher.batches(spec, rows)));
        assertThat(pages).singleElement().isInstanceOf(EntityPage.class);
        return (EntityPage) pages.getFirst();
    }

    @Test
    void writesEachPartOfAPageAsOneTransaction() {
        List<Row> rows = rows();
        EntityPage page = page(SPEC, rows);

        Result result = handler.handle(page, context);

        assertThat(destinationAccount.rows("Dest")).containsExactlyInAnyOrderElementsOf(rows);
        assertThat(result.rowsWritten()).isEqualTo(rows.size());
        assertThat(result.requests()).isEqualTo(page.getParts().size()).isEqualTo(32);
        assertThat(destination.upserts()).isEqualTo(32);
        assertThat(result.emitted()).isEmpty();
    }

    @Test
    void writesNoMoreTransactionsAtOnceThanItsWriteSlots() {
        handler.handle(page(SPEC, rows()), context);

        assertThat(counted.most.get()).isBetween(1, SLOTS);
    }

    @Test
    void aFailedPartGoesOnAsAPageOfItsOwnAndEveryRowWrittenCountsOnce() {
        destination.failUpserts(1, ScriptedFailures.forbidden(), false);
        List<Row> rows = rows();
        EntityPage page = page(SPEC, rows);

        Result first = handler.handle(page, context);

        assertThat(destination.upserts()).as("the other parts were written all the same").isEqualTo(32);
        int held = destinationAccount.rows("Dest").size();
        assertThat(held).isLessThan(rows.size());
        assertThat(first.rowsWritten()).as("the rows the destination holds").isEqualTo(held);
        assertThat(first.requests()).isEqualTo(31);
        EntityPage rest = (EntityPage) first.emitted().getFirst();
        assertThat(first.emitted()).hasSize(1);
        assertThat(rest.getParts()).hasSize(1);
        assertThat(rest.getItemId()).isNotEqualTo(page.getItemId())
                .as("the same on a replay").isEqualTo(EntityRecordHandler.remainder(page, rest.getParts()).getItemId());

        Result second = handler.handle(rest, context);

        assertThat(destinationAccount.rows("Dest")).containsExactlyInAnyOrderElementsOf(rows);
        assertThat(first.rowsWritten() + second.rowsWritten()).as("each row counted once").isEqualTo(rows.size());
        assertThat(second.emitted()).isEmpty();
    }

    @Test
    void aPageOfWhichNoPartIsWrittenFailsWhole() {
        destination.failUpserts(1, ScriptedFailures.forbidden(), false);
        EntityPage page = page(SPEC, EntityBatchHandlerTest.rows("p", 5));

        assertThatThrownBy(() -> handler.handle(page, context)).isInstanceOfSatisfying(FailedWriteException.class,
                e -> assertThat(e.attempts()).isEqualTo(1));
        assertThat(destinationAccount.rows("Dest")).isEmpty();
    }

    @Test
    void aMirrorsDeletePartsDeleteTheirRowsAndCountThem() {
        ScanSpec mirror = ScanSpec.newBuilder(SPEC).setMirror(true).build();
        destinationAccount.upsert("Dest", "a", EntityBatchHandlerTest.rows("a", 3));
        destinationAccount.upsert("Dest", "b", EntityBatchHandlerTest.rows("b", 2));
        List<Row> extra = new ArrayList<>(EntityBatchHandlerTest.rows("a", 3).subList(1, 3));
        extra.addAll(EntityBatchHandlerTest.rows("b", 2));
        List<Row> copied = EntityBatchHandlerTest.rows("c", 4);
        List<SpecificRecord> items = new ArrayList<>(EntityBatcher.batches(mirror, copied));
        items.addAll(EntityBatcher.deletes(mirror, extra));
        EntityPage page = (EntityPage) EntityPages.pack(items).getFirst();

        Result result = handler.handle(page, new ItemContext(mirror));

        assertThat(destinationAccount.rows("Dest")).extracting(r -> r.partitionKey() + "|" + r.rowKey())
                .containsExactlyInAnyOrder("a|r000", "c|r000", "c|r001", "c|r002", "c|r003");
        assertThat(result.rowsWritten()).isEqualTo(4);
        assertThat(result.counters()).containsExactly(java.util.Map.entry(io.tablescan.status.Counters.DELETED, 4L));
    }

    @Test
    void stillWritesAnEntityBatchAsTheFirstReleaseSentIt() {
        List<Row> rows = EntityBatchHandlerTest.rows("p", 5);

        Result result = handler.handle(EntityBatchHandlerTest.batch(SPEC, rows), context);

        assertThat(destinationAccount.rows("Dest")).containsExactlyElementsOf(rows);
        assertThat(result.rowsWritten()).isEqualTo(5);
    }

    @Test
    void anyOtherRecordOnTheEntityTopicFails() {
        PrefixQuery query = new PrefixQuery("q", SPEC, new KeyBound("a", true), null, "", 0, null);

        assertThatThrownBy(() -> handler.handle(query, context)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PrefixQuery");
    }

    /** A store that counts the most upserts under way at once. */
    static final class ConcurrentWrites implements TableStore {
        final TableStore store;
        final TableStore deletes; // a mirror's deletes go past the scripted failures
        final AtomicInteger now = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        ConcurrentWrites(TableStore store, TableStore deletes) {
            this.store = store;
            this.deletes = deletes;
        }

        @Override
        public void upsert(String table, String partitionKey, List<Row> rows) {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                Thread.yield(); // give the other parts' threads a chance to overlap
                store.upsert(table, partitionKey, rows);
            } finally {
                now.decrementAndGet();
            }
        }

        @Override
        public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
            return deletes.deleteIfUnchanged(table, partitionKey, rows);
        }

        @Override
        public void createTableIfNotExists(String table) {
            store.createTableIfNotExists(table);
        }

        @Override
        public boolean tableExists(String table) {
            return store.tableExists(table);
        }

        @Override
        public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
            return store.query(table, query, options, from);
        }
    }
}
