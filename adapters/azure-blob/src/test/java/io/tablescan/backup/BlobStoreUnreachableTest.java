package io.tablescan.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** A Blob endpoint where nothing listens fails within seconds, in one line naming it and what was tried. */
class BlobStoreUnreachableTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    @Test
    void nothingListeningFailsFastNamingTheEndpointAndNoKey() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        BlobStore store = BlobStore.fromConnectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                + "AccountKey=" + KEY + ";BlobEndpoint=http://127.0.0.1:" + port + "/devstoreaccount1;", "backups", "p");
        long start = System.nanoTime();
        assertThatThrownBy(store::containerExists).isInstanceOfSatisfying(BackupException.class, e -> {
            assertThat(e.kind()).isEqualTo(BackupException.Kind.UNREACHABLE);
            assertThat(e.getMessage()).contains("http://127.0.0.1:" + port, "container backups", "refused",
                    "tried to connect to 127.0.0.1:" + port).doesNotContain("Exception").doesNotContain(KEY);
        });
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the line").isLessThan(10_000);
    }
}
