package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** An I/O error's few words: what the user can act on, never a URL's query. */
class IoCauseTest {
    @Test
    void aPortWhereNothingListensSaysThatNothingAnswers() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        } // closed: nothing listens there now
        Throwable refused = catchThrowable(() -> HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/t?sig=SECRET")).build(),
                        HttpResponse.BodyHandlers.discarding()));

        assertThat(AzureTableStore.ioError("abc", refused).getMessage())
                .isEqualTo("I/O error on table abc: cannot connect: nothing answers at the endpoint, or it is unreachable");
    }

    @Test
    void anUnknownHostIsNamedAndAnyOtherCauseKeepsItsNameWithoutTheQuery() {
        assertThat(AzureTableStore.ioCause(new IOException(new UnknownHostException("nosuch.example"))))
                .isEqualTo("unknown host nosuch.example");
        assertThat(AzureTableStore.ioCause(new IOException("wrapper", new IOException("reset at https://a/t?sig=SECRET"))))
                .isEqualTo("IOException reset at https://a/t?...");
    }
}
