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

    /**
     * An endpoint that answers 404 without the table service's error code (a wrong path in it, a proxy) is not a
     * missing table: one line naming the endpoint to check, exit 3; the service's own TableNotFound is, exit 4.
     */
    @Test
    void aBare404NamesTheEndpointInsteadOfAMissingTable() throws Exception {
        String key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
        String[] code = {null};
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (code[0] != null) {
                exchange.getResponseHeaders().add("x-ms-error-code", code[0]);
            }
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
        try {
            String endpoint = "http://127.0.0.1:" + server.getAddress().getPort() + "/devstoreaccount1";
            TableStore store = Checks.store("--source-connection-string", "DefaultEndpointsProtocol=http;AccountName="
                    + "devstoreaccount1;AccountKey=" + key + ";TableEndpoint=" + endpoint + ";");

            assertThatThrownBy(() -> Checks.tableExists(store, "t", "source")).isInstanceOfSatisfying(UserError.class,
                    e -> {
                        assertThat(e.exitCode()).isEqualTo(UserError.UNREACHABLE);
                        assertThat(e.getMessage()).isEqualTo("cannot read the source table t: the endpoint " + endpoint
                                + " answered HTTP 404 without a table service error code: check the endpoint URL (a "
                                + "wrong path, or a proxy, answers so)").doesNotContain(key);
                    });

            code[0] = "TableNotFound";
            assertThatThrownBy(() -> Checks.tableExists(store, "t", "source")).isInstanceOfSatisfying(UserError.class,
                    e -> {
                        assertThat(e.exitCode()).isEqualTo(UserError.NOT_FOUND);
                        assertThat(e.getMessage()).isEqualTo("the source table t does not exist");
                    });
        } finally {
            server.stop(0);
        }
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
