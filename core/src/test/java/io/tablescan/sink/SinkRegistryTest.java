package io.tablescan.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.Row;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkOutput;
import io.tablescan.spi.SinkProvider;
import io.tablescan.spi.SinkRef;
import io.tablescan.table.RetryCounter;
import io.tablescan.table.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The runtime around every sink: lookup by type, one sink per reference, prepared once, transient failures retried. */
class SinkRegistryTest {
    static final RetryPolicy NO_WAIT = new RetryPolicy(3, Duration.ZERO, Duration.ZERO);
    static final List<Row> ROWS = List.of(new Row("p", "r", List.of()));

    /** A sink whose failures the test scripts: the next {@code failures} calls throw {@code failure}. */
    static final class ScriptedSink implements RowSink {
        final AtomicInteger prepares = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        final AtomicInteger flushes = new AtomicInteger();
        volatile int prepareFailures;
        volatile int writeFailures;
        volatile int flushFailures;
        /** When set, a write waits for it after it announced itself on {@code writing}. */
        volatile CountDownLatch writeGate;
        final CountDownLatch writing = new CountDownLatch(1);
        volatile RuntimeException failure = SinkException.transientFailure("busy", null);

        @Override
        public void prepare() {
            prepares.incrementAndGet();
            if (prepareFailures > 0) {
                prepareFailures--;
                throw failure;
            }
        }

        @Override
        public int write(List<Row> rows) {
            throw new AssertionError("the worker calls write(rows, output)");
        }

        @Override
        public int write(List<Row> rows, SinkOutput output) {
            int attempt = writes.incrementAndGet();
            if (writeGate != null) {
                writing.countDown();
                try {
                    writeGate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            // Publishes before it may fail, as a sink that fails half-way would.
            output.publish("out", null, ("attempt " + attempt).getBytes(StandardCharsets.UTF_8), Map.of());
            if (writeFailures > 0) {
                writeFailures--;
                throw failure;
            }
            return 1;
        }

        @Override
        public void flush() {
            flushes.incrementAndGet();
            if (flushFailures > 0) {
                flushFailures--;
                throw failure;
            }
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    final List<SinkRef> created = new ArrayList<>();
    /** What the writes published, as the item's output got it. */
    final List<String> published = Collections.synchronizedList(new ArrayList<>());
    final SinkOutput output = (topic, key, value, headers) -> published.add(new String(value, StandardCharsets.UTF_8));
    final ScriptedSink sink = new ScriptedSink();

    SinkProvider provider(String type) {
        return new SinkProvider() {
            @Override
            public String type() {
                return type;
            }

            @Override
            public RowSink create(SinkContext context) {
                created.add(context.ref());
                return sink;
            }
        };
    }

    static Function<SinkRef, SinkContext> contexts() {
        return ref -> new SinkContext() {
            @Override
            public SinkRef ref() {
                return ref;
            }

            @Override
            public <T> T account(String alias, Class<T> kind) {
                throw new IllegalArgumentException("no accounts here");
            }
        };
    }

    SinkRegistry registry(SinkProvider... providers) {
        return new SinkRegistry(List.of(providers), contexts(), NO_WAIT);
    }

    static SinkRef ref(String type, String target) {
        return new SinkRef(type, null, target, Map.of("k", "v"));
    }

    @Test
    void anUnknownTypeIsAPermanentFailureNamingTheTypesThisWorkerHas() {
        SinkRegistry registry = registry(provider("count"), provider("table"));

        assertThatThrownBy(() -> registry.sink(ref("nosuch", "t")))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessage("unknown sink type 'nosuch': this worker has sinks of type count, table");
    }

    @Test
    void twoProvidersOfOneTypeAreRefused() {
        assertThatThrownBy(() -> registry(provider("count"), provider("count")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two sink providers of type 'count'");
    }

    @Test
    void oneSinkPerReferenceMadeOnItsFirstUseAndPreparedOnce() {
        SinkRegistry registry = registry(provider("count"));

        GuardedSink first = registry.sink(ref("count", "a"));
        first.write(ROWS, RetryCounter.NONE, output);
        first.write(ROWS, RetryCounter.NONE, output);
        GuardedSink again = registry.sink(ref("count", "a"));
        registry.sink(ref("count", "b"));

        assertThat(again).isSameAs(first);
        assertThat(created).containsExactly(ref("count", "a"), ref("count", "b"));
        assertThat(sink.prepares).as("prepared before the first write only").hasValue(1);
        assertThat(sink.writes).hasValue(2);
    }

    @Test
    void concurrentFirstWritesPrepareOnce() throws Exception {
        GuardedSink guarded = registry(provider("count")).sink(ref("count", "a"));
        CountDownLatch start = new CountDownLatch(1);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 16; i++) {
                threads.submit(() -> {
                    start.await();
                    return guarded.write(ROWS, RetryCounter.NONE, output);
                });
            }
            start.countDown();
        }
        assertThat(sink.prepares).hasValue(1);
        assertThat(sink.writes).hasValue(16);
    }

    @Test
    void transientWriteFailuresAreRetried() {
        sink.writeFailures = 2;
        ItemCounts item = new ItemCounts();

        int requests = registry(provider("count")).sink(ref("count", "a")).write(ROWS, item, output);

        assertThat(requests).isEqualTo(1);
        assertThat(sink.writes).hasValue(3);
        assertThat(item.retried).as("the item's retries, for the ledger").hasValue(2);
        assertThat(item.throttled).hasValue(0);
    }

    @Test
    void onlyTheSuccessfulAttemptsRecordsArePublished() {
        sink.writeFailures = 2;

        registry(provider("count")).sink(ref("count", "a")).write(ROWS, RetryCounter.NONE, output);

        assertThat(published).as("failed attempts' records dropped with them").containsExactly("attempt 3");
    }

    @Test
    void aWriteThatFailsForGoodPublishesNothing() {
        sink.writeFailures = 1;
        sink.failure = SinkException.permanent("bad row");
        GuardedSink guarded = registry(provider("count")).sink(ref("count", "a"));

        assertThatThrownBy(() -> guarded.write(ROWS, RetryCounter.NONE, output)).isInstanceOf(FailedWriteException.class);
        assertThat(published).isEmpty();
    }

    @Test
    void throttledFailuresAreRetriedAndCountedAsThrottling() {
        sink.writeFailures = 1;
        sink.failure = SinkException.throttled("slow down", null);
        ItemCounts item = new ItemCounts();

        registry(provider("count")).sink(ref("count", "a")).write(ROWS, item, output);

        assertThat(sink.writes).hasValue(2);
        assertThat(item.retried).hasValue(1);
        assertThat(item.throttled).hasValue(1);
    }

    /** The counts of one item, as its context keeps them. */
    static final class ItemCounts implements RetryCounter {
        final AtomicInteger retried = new AtomicInteger();
        final AtomicInteger throttled = new AtomicInteger();

        @Override
        public void retried() {
            retried.incrementAndGet();
        }

        @Override
        public void throttled() {
            throttled.incrementAndGet();
        }
    }

    @Test
    void transientFailuresPastTheBudgetFailWithTheirAttempts() {
        sink.writeFailures = Integer.MAX_VALUE;
        GuardedSink guarded = registry(provider("count")).sink(ref("count", "a"));

        assertThatThrownBy(() -> guarded.write(ROWS, RetryCounter.NONE, output)).isInstanceOfSatisfying(FailedWriteException.class, e -> {
            assertThat(e.attempts()).isEqualTo(NO_WAIT.maxAttempts());
            assertThat(e.isTransient()).isTrue();
            assertThat(e.getMessage()).isEqualTo("busy (after 3 attempts)");
        });
        assertThat(sink.writes).hasValue(NO_WAIT.maxAttempts());
    }

    @Test
    void permanentFailuresAreNotRetried() {
        sink.writeFailures = 1;
        sink.failure = SinkException.permanent("bad row");
        GuardedSink guarded = registry(provider("count")).sink(ref("count", "a"));

        assertThatThrownBy(() -> guarded.write(ROWS, RetryCounter.NONE, output)).isInstanceOfSatisfying(FailedWriteException.class,
                e -> assertThat(e.attempts()).isEqualTo(1)).hasMessage("bad row");
        assertThat(sink.writes).hasValue(1);
    }

    @Test
    void otherExceptionsPassUnchangedAndUnretried() {
        sink.writeFailures = 1;
        sink.failure = new IllegalStateException("a bug in the sink");
        GuardedSink guarded = registry(provider("count")).sink(ref("count", "a"));

        assertThatThrownBy(() -> guarded.write(ROWS, RetryCounter.NONE, output)).isInstanceOf(IllegalStateException.class);
        assertThat(sink.writes).hasValue(1);
    }

    @Test
    void aFailedPrepareIsRetriedAndRunsAgainBeforeTheNextWrite() {
        sink.prepareFailures = NO_WAIT.maxAttempts(); // every attempt of the first write's prepare fails
        GuardedSink guarded = registry(provider("count")).sink(ref("count", "a"));

        assertThatThrownBy(() -> guarded.write(ROWS, RetryCounter.NONE, output)).isInstanceOf(FailedWriteException.class);
        assertThat(sink.writes).as("no write before the sink is prepared").hasValue(0);

        guarded.write(ROWS, RetryCounter.NONE, output);

        assertThat(sink.prepares).hasValue(NO_WAIT.maxAttempts() + 1);
        assertThat(sink.writes).hasValue(1);
    }

    @Test
    void aProviderThatCannotCreateItsSinkTriesAgainOnTheNextBatch() {
        AtomicInteger attempts = new AtomicInteger();
        SinkRegistry registry = new SinkRegistry(List.of(new SinkProvider() {
            @Override
            public String type() {
                return "count";
            }

            @Override
            public RowSink create(SinkContext context) {
                if (attempts.incrementAndGet() == 1) {
                    throw SinkException.permanent("account not configured");
                }
                return sink;
            }
        }), contexts(), NO_WAIT);

        assertThatThrownBy(() -> registry.sink(ref("count", "a"))).hasMessage("account not configured");
        assertThat(registry.sink(ref("count", "a"))).isNotNull();
        assertThat(attempts).hasValue(2);
    }

    @Test
    void closingTheRegistryClosesEverySinkOnce() {
        SinkRegistry registry = registry(provider("count"));
        registry.sink(ref("count", "a"));
        registry.sink(ref("count", "b")); // the same scripted sink behind both references

        registry.close();
        registry.close();

        assertThat(sink.closes).hasValue(2);
    }

    @Test
    void theCommitPointFlushesOnlyTheSinksWrittenToSinceTheirLastFlush() {
        SinkRegistry registry = registry(provider("count"));
        registry.sink(ref("count", "a")).write(ROWS, RetryCounter.NONE, output);
        registry.sink(ref("count", "b")); // the same scripted sink behind it, never written to

        registry.flush();
        registry.flush();
        assertThat(sink.flushes).as("a's rows once, b never").hasValue(1);

        registry.sink(ref("count", "b")).write(ROWS, RetryCounter.NONE, output);
        registry.flush();
        assertThat(sink.flushes).hasValue(2);
    }

    @Test
    void aTransientFlushFailureIsRetriedAndOneForGoodFailsAndFlushesAgainNextTime() {
        SinkRegistry registry = registry(provider("count"));
        GuardedSink guarded = registry.sink(ref("count", "a"));
        guarded.write(ROWS, RetryCounter.NONE, output);
        sink.flushFailures = 1;
        registry.flush();
        assertThat(sink.flushes).as("retried").hasValue(2);

        guarded.write(ROWS, RetryCounter.NONE, output);
        sink.failure = SinkException.permanent("container deleted");
        sink.flushFailures = 1;
        assertThatThrownBy(registry::flush).isInstanceOf(FailedWriteException.class).hasMessage("container deleted");
        assertThat(sink.flushes).as("not retried").hasValue(3);

        registry.flush(); // the rows it was given are still unflushed
        assertThat(sink.flushes).hasValue(4);
    }

    @Test
    void aWriteThatReturnsAfterAFlushBeganIsFlushedByTheNext() throws Exception {
        SinkRegistry registry = registry(provider("count"));
        GuardedSink guarded = registry.sink(ref("count", "a"));
        sink.writeGate = new CountDownLatch(1);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var write = threads.submit(() -> guarded.write(ROWS, RetryCounter.NONE, output));
            sink.writing.await();
            registry.flush(); // while the write runs: its rows may not be in this flush
            int before = sink.flushes.get();
            sink.writeGate.countDown();
            write.get();

            registry.flush();
            assertThat(sink.flushes).as("a flush after the write returned").hasValue(before + 1);
        }
    }
}
