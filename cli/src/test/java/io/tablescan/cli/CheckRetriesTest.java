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

    @Test
    void anEndpointWhereNothingListensIsNamedWithWhatWasTriedWithinSeconds() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        String key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
        TableStore store = Checks.store("--source-connection-string", "DefaultEndpointsProtocol=http;AccountName="
                + "devstoreaccount1;AccountKey=" + key + ";TableEndpoint=http://127.0.0.1:" + port + "/devstoreaccount1;");
        long start = System.nanoTime();
        assertThatThrownBy(() -> Checks.tableExists(store, "t", "source")).isInstanceOf(UserError.class)
                .hasMessageContaining("cannot read the source table t at http://127.0.0.1:" + port
                        + "/devstoreaccount1: ")
                .hasMessageContaining("cannot connect").hasMessageContaining("after 3 attempts")
                .hasMessageNotContaining(key);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the line").isLessThan(5_000);
    }

    @Test
    void everyLineAboutARequestWithNoAnswerNamesItsEndpoint() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        TableStore store = Checks.store("--dest-connection-string", "DefaultEndpointsProtocol=http;AccountName="
                + "devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:" + port + "/devstoreaccount1;");
        // as a copy's or an import's destination, a restore's tables and a backup's list of tables meet it
        assertThatThrownBy(() -> Checks.retried(store).createTableIfNotExists("t")).isInstanceOfSatisfying(
                io.tablescan.spi.TableStoreException.class, e -> assertThat(Checks.at(store, e))
                        .isEqualTo(" at http://127.0.0.1:" + port + "/devstoreaccount1"));
        assertThat(Checks.at(store, new io.tablescan.spi.TableStoreException("denied", 403, false, null))).isEmpty();
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
