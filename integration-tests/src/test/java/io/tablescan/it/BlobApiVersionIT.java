package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import io.tablescan.backup.BackupException;
import io.tablescan.backup.BlobStore;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Azurite's Blob service as users start it (no --skipApiVersionCheck): it takes our API version, and a refused one says which. */
class BlobApiVersionIT {
    @Test
    void azuriteAsUsersStartItAcceptsTheVersionWeSend() {
        BlobStore store = BlobStore.fromConnectionString(AzuriteBlob.shared().connectionString(), "apiversion", "p");
        store.prepare();
        store.write("a.txt", "hello".getBytes(StandardCharsets.UTF_8));
        assertThat(store.exists("a.txt")).isTrue();
        assertThat(new String(store.read("a.txt"), StandardCharsets.UTF_8)).isEqualTo("hello");
    }

    @Test
    void aVersionTheEndpointRefusesIsNamedWithWhatToChange() {
        BlobServiceVersion newer = BlobServiceVersion.getLatest();
        assertThat(newer).as("the SDK knows a version newer than the one we pin").isNotEqualTo(BlobStore.SERVICE_VERSION);
        BlobStore store = new BlobStore(new BlobServiceClientBuilder().connectionString(AzuriteBlob.shared()
                .connectionString()).serviceVersion(newer).buildClient().getBlobContainerClient("apiversion2"), "");
        String expected = "the Blob endpoint does not accept API version " + newer.getVersion()
                + "; use Azurite 3.35 or later (or start it with --skipApiVersionCheck)";
        assertThatThrownBy(store::prepare).isInstanceOf(BackupException.class)
                .hasMessage("Blob storage refused container apiversion2 (HTTP 400 InvalidHeaderValue): " + expected
                        + ", or a Blob endpoint of Azure Storage");
        assertThatThrownBy(() -> store.exists("x")).as("a HEAD request: no body, the error code in a header")
                .hasMessageContaining(expected);
    }
}
