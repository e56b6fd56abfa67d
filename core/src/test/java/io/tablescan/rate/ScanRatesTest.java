package io.tablescan.rate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.runtime.ItemContext;
import io.tablescan.schema.RateDemand;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableStores;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Processes sharing a scan's cap through a board (an in-memory one here; Kafka's in the integration tests). Each test
 * has its own board and store and spends its time waiting for the cap: they run at the same time.
 */
@Execution(ExecutionMode.CONCURRENT)
class ScanRatesTest {
    private static final int CAP = 2000;
    private final Board board = new Board();
    private final List<ScanRates> processes = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final FakeStore store = new FakeStore(0);
    private final ScanSpec spec = ScanSpec.newBuilder().setScanId("scan-1").setSource(new TableRef("a", "src"))
            .setPageSize(100).setPageBudget(5).setCreatedAtMillis(0).setLimits(Map.of("read", (long) CAP)).build();

    @AfterEach
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        processes.forEach(ScanRates::close);
    }

    @Test
    void threeProcessesTogetherStayAtTheCapAndAddingOneDoesNotRaiseIt() throws InterruptedException {
        start(4);
        start(4);
        long rate = measure(3000, 5000);
        assertThat(rate).as("two processes, rows/s").isBetween((long) (CAP * 0.85), (long) (CAP * 1.1));
        start(8); // a newcomer with more demand than each of the others
        long withThird = measure(3000, 5000);
        assertThat(withThird).as("three processes, rows/s").isBetween((long) (CAP * 0.85), (long) (CAP * 1.1));
    }

    @Test
    void aThrottleRecordChangesTheCapWithinSeconds() throws InterruptedException {
        start(4);
        start(4);
        measure(2000, 3000);
        board.throttles.put("scan-1", 500L);
        long rate = measure(3000, 5000);
        assertThat(rate).isBetween(400L, 550L);
    }

    /**
     * A cancelled scan's read still waiting for its share is not sent when its item has written nothing (the item is
     * then skipped), and is when the item has written (what it wrote must be counted): a Ctrl-C of a job capped at
     * 20 rows/s waited half a minute for such reads.
     */
    @Test
    void aCancelledScansWaitingReadGivesUpUnlessItsItemHasWritten() throws Exception {
        ScanSpec slow = ScanSpec.newBuilder(spec).setScanId("scan-cancelled").setLimits(Map.of("read", 1L)).build();
        ScanRates rates = new ScanRates(board.process(), 200);
        processes.add(rates);
        ItemContext wrote = new ItemContext(slow);
        wrote.writing();
        // a first page goes at once (the bucket is not in debt) and leaves it 100 s in debt at 1 row/s
        TableStores.capped(store, slow, rates, new ItemContext(slow))
                .query("src", new KeyRange(null, null), new QueryOptions(100, null, null), null);
        List<java.util.concurrent.CompletableFuture<Object>> reads = new ArrayList<>();
        for (ItemContext item : List.of(new ItemContext(slow), wrote)) {
            TableStore limited = TableStores.capped(store, slow, rates, item);
            reads.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return limited.query("src", new KeyRange(null, null), new QueryOptions(100, null, null), null);
                } catch (RuntimeException e) {
                    return e;
                }
            }, Thread::startVirtualThread));
        }
        long deadline = System.nanoTime() + 10_000_000_000L; // both items' reads waiting for the share
        while (rates.lane(slow, Direction.READ).active() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(store.requests.get()).isEqualTo(1);
        assertThat(reads).noneMatch(java.util.concurrent.CompletableFuture::isDone);

        rates.cancelled("scan-cancelled", true);
        assertThat(reads.get(0).get(5, java.util.concurrent.TimeUnit.SECONDS)).as("the item that wrote nothing")
                .isInstanceOf(WaitStoppedException.class);
        assertThat(reads.get(1)).as("the item that wrote, still waiting").isNotDone();
        rates.stopWaits();
        assertThat(reads.get(1).get(5, java.util.concurrent.TimeUnit.SECONDS)).isInstanceOf(WaitStoppedException.class);
    }

    /**
     * A lane forgotten for idleness while a request still waited in it, or while it still owed for requests let
     * through, left the process with a fresh bucket beside it: over its share, and a stop no longer reached the
     * waiting request. A lane with a request in it, or in debt, is kept; once idle and paid for, it goes.
     */
    @Test
    void aLaneIsKeptWhileARequestWaitsInItOrItOwes() throws Exception {
        ScanSpec slow = ScanSpec.newBuilder(spec).setScanId("scan-idle").setLimits(Map.of("read", 1_000L)).build();
        ScanRates rates = new ScanRates(board.process(), 3_600_000, -1); // ticks by hand; idle as soon as unused
        processes.add(rates);
        Lane lane = rates.lane(slow, Direction.READ);
        lane.run(2_000, () -> null, r -> 2_000); // passes at once, and leaves the bucket in debt
        var waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return lane.run(100, () -> "sent", r -> 100);
            } catch (RuntimeException e) {
                return e;
            }
        }, Thread::startVirtualThread);
        awaitTrue(() -> lane.active() == 1, "a request waiting for its share");

        rates.tick(); // the whole cap now (alone): 2 s of debt left at most
        assertThat(rates.lane(slow, Direction.READ)).as("the lane a request waits in").isSameAs(lane);
        rates.stopWaits();
        assertThat(waiting.get(5, java.util.concurrent.TimeUnit.SECONDS)).as("the stop reached it")
                .isInstanceOf(WaitStoppedException.class);
        if (lane.bucket.inDebt()) {
            rates.tick();
            assertThat(rates.lane(slow, Direction.READ)).as("nothing in it, but in debt").isSameAs(lane);
        }
        awaitTrue(() -> !lane.bucket.inDebt(), "the debt paid");
        rates.tick();
        assertThat(rates.lane(slow, Direction.READ)).as("idle, nothing in it, nothing owed: forgotten")
                .isNotSameAs(lane);
    }

    /** A request under way (sent, its answer awaited) keeps its lane too: what it does not use goes back to it. */
    @Test
    void aLaneIsKeptWhileARequestIsUnderWay() throws Exception {
        ScanSpec fast = ScanSpec.newBuilder(spec).setScanId("scan-underway").setLimits(Map.of("read", 1_000_000L))
                .build();
        ScanRates rates = new ScanRates(board.process(), 3_600_000, -1);
        processes.add(rates);
        Lane lane = rates.lane(fast, Direction.READ);
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        var running = java.util.concurrent.CompletableFuture.runAsync(() -> lane.run(10, () -> {
            try {
                return answered.await(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, r -> 10), Thread::startVirtualThread);
        awaitTrue(() -> lane.active() == 1 && !lane.bucket.inDebt(), "a request under way, paid for");
        rates.tick();
        assertThat(rates.lane(fast, Direction.READ)).as("the lane a request is under way in").isSameAs(lane);
        answered.countDown();
        running.get(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** An item's store asks for the lane at each request: after its lane was forgotten, it takes from the new one. */
    @Test
    void anItemsStoreTakesFromTheLaneItsProcessHasNow() {
        ScanSpec capped = ScanSpec.newBuilder(spec).setScanId("scan-relane").setLimits(Map.of("read", 1_000_000L))
                .build();
        ScanRates rates = new ScanRates(board.process(), 3_600_000, -1);
        processes.add(rates);
        TableStore limited = TableStores.capped(store, capped, rates, new ItemContext(capped));
        limited.query("src", new KeyRange(null, null), new QueryOptions(100, null, null), null);
        Lane first = rates.lane(capped, Direction.READ);
        awaitTrue(() -> !first.bucket.inDebt(), "the read paid for");
        rates.tick(); // idle, nothing in it, nothing owed: forgotten
        Lane now = rates.lane(capped, Direction.READ);
        assertThat(now).isNotSameAs(first);
        limited.query("src", new KeyRange(null, null), new QueryOptions(100, null, null), null);
        assertThat(now.takeRows()).as("rows the item's next read took from the process's lane").isEqualTo(100);
    }

    /** Waits up to 10 s for {@code condition}, looking every 10 ms, then asserts it. */
    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    @Test
    void aDeleteJobsDeletesTakeItsWriteCap() throws InterruptedException {
        ScanSpec deletes = ScanSpec.newBuilder(spec).setScanId("scan-deletes").setLimits(Map.of("write", 500L)).build();
        ScanRates rates = new ScanRates(board.process(), 200);
        processes.add(rates);
        TableStore limited = TableStores.capped(store, deletes, rates, new ItemContext(deletes));
        List<TableStore.Version> batch = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> new TableStore.Version("r" + i, null)).toList();
        threads.add(Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                limited.deleteIfUnchanged("src", "p", batch); // a delete job deletes in its source
            }
        }));
        Thread.sleep(2000); // time passing is what is measured here
        long from = store.rowsDeleted.get();
        long start = System.nanoTime();
        Thread.sleep(4000);
        long rate = (store.rowsDeleted.get() - from) * 1_000_000_000L / (System.nanoTime() - start);
        assertThat(rate).as("rows deleted a second").isBetween(400L, 560L);
    }

    /**
     * The workers stop while a write waits for its share of a low cap: it gives up at once, unsent, instead of
     * being let through seconds later; so does one that comes after the stop.
     */
    @Test
    void aWriteWaitingForItsShareIsNotSentOnceTheWorkersStop() throws InterruptedException {
        ScanSpec capped = ScanSpec.newBuilder(spec).setScanId("scan-stop").setLimits(Map.of("write", 100L)).build();
        ScanRates rates = new ScanRates(board.process(), 200);
        processes.add(rates);
        Lane write = rates.lane(capped, Direction.WRITE);
        AtomicLong sent = new AtomicLong();
        write.run(1_000, sent::incrementAndGet, n -> 1_000); // ten seconds of the cap: the next one waits
        java.util.concurrent.atomic.AtomicReference<Throwable> waited = new java.util.concurrent.atomic.AtomicReference<>();
        Thread waiting = Thread.ofPlatform().daemon().start(() -> {
            try {
                write.run(100, sent::incrementAndGet, n -> 100);
            } catch (RuntimeException e) {
                waited.set(e);
            }
        });
        waiting.join(300);
        assertThat(waiting.isAlive()).as("waits for its share").isTrue();

        long stopped = System.nanoTime();
        rates.stopWaits();
        waiting.join(5_000);

        assertThat(waiting.isAlive()).isFalse();
        assertThat((System.nanoTime() - stopped) / 1_000_000).as("ms until it gave up").isLessThan(1_000);
        assertThat(waited.get()).isInstanceOf(io.tablescan.spi.TableStoreException.class)
                .hasMessageContaining("not sent");
        assertThat(((io.tablescan.spi.TableStoreException) waited.get()).isTransient()).as("no retry").isFalse();
        assertThat(sent).as("requests sent").hasValue(1);
        ScanSpec later = ScanSpec.newBuilder(capped).setScanId("scan-later").build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> rates.lane(later, Direction.WRITE).run(100,
                sent::incrementAndGet, n -> 100)).hasMessageContaining("not sent");
        assertThat(sent).hasValue(1);
    }

    /** Waits {@code settle} ms, then returns the rows/s read over the next {@code window} ms. */
    private long measure(long settle, long window) throws InterruptedException {
        Thread.sleep(settle); // time passing is what is measured here
        long from = store.rowsRead.get();
        long start = System.nanoTime();
        Thread.sleep(window);
        return (store.rowsRead.get() - from) * 1_000_000_000L / (System.nanoTime() - start);
    }

    /** A process with {@code n} threads reading the scan's source as fast as it lets them. */
    private void start(int n) {
        ScanRates rates = new ScanRates(board.process(), 200);
        processes.add(rates);
        for (int i = 0; i < n; i++) {
            TableStore limited = TableStores.capped(store, spec, rates, new ItemContext(spec));
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                while (!stop.get()) {
                    limited.query("src", new KeyRange(null, null), new QueryOptions(100, null, null), null);
                }
            });
            threads.add(t);
        }
    }

    /** Every process's demands in one map, as the rate-demand topic holds them. */
    static final class Board {
        final Map<String, RateDemand> demands = new ConcurrentHashMap<>();
        final Map<String, Long> throttles = new ConcurrentHashMap<>();

        Demands process() {
            String id = UUID.randomUUID().toString();
            return new Demands() {
                @Override
                public String process() {
                    return id;
                }

                @Override
                public void publish(List<RateDemand> mine) {
                    mine.forEach(d -> demands.put(id + "/" + d.getScanId() + "/" + d.getDirection(), d));
                }

                @Override
                public List<RateDemand> demands(String scanId, Direction direction, long now) {
                    return demands.values().stream().filter(d -> d.getScanId().equals(scanId)
                            && d.getDirection().equals(direction.key) && now - d.getTimeMillis() <= 3000).toList();
                }

                @Override
                public Long throttle(String scanId, Direction direction) {
                    return direction == Direction.READ ? throttles.get(scanId) : null;
                }

                @Override
                public void close() {}
            };
        }
    }
}
