package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A check's request that loses its connection once is tried again; a refusal is not. */
class CheckRetriesTest {
    @Test
    void aDroppedConnectionDoesNotFailTheCheck() {
        AtomicInteger calls = new AtomicInteger();
        TableStore flaky = store(calls, new TableStoreException("I/O error on table t: EOF reached while reading", 0,
                true, null));

        Checks.tableExists(flaky, "t", "source");

        assertThat(calls).as("one lost connection, then the answer").hasValue(2);
    }

    @Test
    void aRefusalIsOneLineAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        TableStore refusing = store(calls, new TableStoreException("forbidden", 403, false, null));

        assertThatThrownBy(() -> Checks.tableExists(refusing, "t", "source")).isInstanceOf(UserError.class)
                .hasMessageContaining("cannot read the source table t");
        assertThat(calls).hasValue(1);
    }

    /** A store whose tableExists fails with {@code first} on its first call and answers true after. */
    private static TableStore store(AtomicInteger calls, TableStoreException first) {
        return (TableStore) Proxy.newProxyInstance(TableStore.class.getClassLoader(), new Class<?>[] {TableStore.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("tableExists")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    if (calls.incrementAndGet() == 1 || !first.isTransient()) {
                        throw first;
                    }
                    return true;
                });
    }
}
