package io.tablescan.examples.swapkeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkProvider;
import io.tablescan.spi.SinkRef;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.testkit.InMemoryTableStore;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The example plugin on the in-memory table service, through its provider as the worker finds it. */
class SwapKeysSinkTest {
    final InMemoryTableStore account = new InMemoryTableStore();

    static Row row(String partitionKey, String rowKey, long size) {
        return new Row(partitionKey, rowKey, List.of(new RowProperty("Size", EdmType.INT64, size)));
    }

    RowSink sink(SinkRef ref) {
        SinkProvider provider = ServiceLoader.load(SinkProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals(SwapKeysSinkProvider.TYPE)).findFirst().orElseThrow();
        return provider.create(new SinkContext() {
            @Override
            public SinkRef ref() {
                return ref;
            }

            @Override
            public <T> T account(String alias, Class<T> kind) {
                assertThat(alias).isEqualTo("idx");
                return kind.cast(account);
            }
        });
    }

    @Test
    void writesEveryRowWithItsKeysSwappedIntoTheTableItCreates() {
        RowSink sink = sink(new SinkRef(SwapKeysSinkProvider.TYPE, "idx", "ByVersion", Map.of()));
        sink.prepare();
        assertThat(account.tableExists("ByVersion")).isTrue();

        List<Row> batch = List.of(row("pkg", "1.0", 10), row("pkg", "2.0", 20));
        assertThat(sink.write(batch)).as("one request per row").isEqualTo(2);
        sink.write(batch); // a replay

        assertThat(account.rows("ByVersion")).containsExactly(row("1.0", "pkg", 10), row("2.0", "pkg", 20));
    }

    @Test
    void aMissingAccountOrTargetIsPermanent() {
        assertThatThrownBy(() -> sink(new SinkRef(SwapKeysSinkProvider.TYPE, null, "ByVersion", Map.of())))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse());
        assertThatThrownBy(() -> sink(new SinkRef(SwapKeysSinkProvider.TYPE, "idx", "", Map.of())))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse());
    }

    @Test
    void theServicesAnswersBecomeTransientThrottledOrPermanentFailures() {
        RowSink sink = sink(new SinkRef(SwapKeysSinkProvider.TYPE, "idx", "Missing", Map.of()));
        assertThatThrownBy(() -> sink.write(List.of(row("p", "r", 1)))) // 404: the table is not there
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isTransient()).isFalse());

        RowSink busy = new SwapKeysSink(failing(503, true), "T");
        assertThatThrownBy(() -> busy.write(List.of(row("p", "r", 1))))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isThrottled()).isTrue());
        RowSink timeout = new SwapKeysSink(failing(500, true), "T");
        assertThatThrownBy(timeout::prepare).isInstanceOfSatisfying(SinkException.class,
                e -> assertThat(e.isTransient()).isTrue());
    }

    /** A store whose every request fails with this status. */
    private static TableStore failing(int status, boolean transientFailure) {
        return (TableStore) Proxy.newProxyInstance(TableStore.class.getClassLoader(), new Class<?>[] {TableStore.class},
                (proxy, method, args) -> {
                    throw new TableStoreException("HTTP " + status, status, transientFailure, null);
                });
    }
}
