package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The forms of connection string tablescan accepts, and one line without the secret for the rest. */
class ConnectionStringTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[] {1, 2, 3});

    @Test
    void anAccountKeyWithAnExplicitOrADerivedEndpoint() {
        ConnectionString cs = ConnectionString.parse("DefaultEndpointsProtocol=http;AccountName=acc;AccountKey=" + KEY
                + ";TableEndpoint=http://127.0.0.1:10002/acc/;");
        assertThat(cs.endpoint()).isEqualTo("http://127.0.0.1:10002/acc");
        assertThat(cs.account()).isEqualTo("acc");
        assertThat(cs.key()).containsExactly(1, 2, 3);
        assertThat(ConnectionString.parse("AccountName=acc;AccountKey=" + KEY + ";EndpointSuffix=core.chinacloudapi.cn")
                .endpoint()).isEqualTo("https://acc.table.core.chinacloudapi.cn");
        assertThat(ConnectionString.parse("accountname=acc;accountkey=" + KEY).endpoint())
                .isEqualTo("https://acc.table.core.windows.net");
    }

    @Test
    void aSasTokenAndTheDevelopmentStorage() {
        ConnectionString sas = ConnectionString.parse("TableEndpoint=https://acc.table.core.windows.net;"
                + "SharedAccessSignature=?sv=2019-02-02&sig=abc%3D");
        assertThat(sas.key()).isNull();
        assertThat(sas.sasToken()).isEqualTo("sv=2019-02-02&sig=abc%3D");
        ConnectionString dev = ConnectionString.parse("UseDevelopmentStorage=true");
        assertThat(dev.endpoint()).isEqualTo("http://127.0.0.1:10002/devstoreaccount1");
        assertThat(dev.account()).isEqualTo("devstoreaccount1");
    }

    @Test
    void malformedStringsAndKeysAreSaidWithoutTheirText() {
        for (String bad : new String[] {"nonsense", "AccountName=acc", "AccountKey=" + KEY,
            "AccountName=acc;AccountKey=" + KEY + ";TableEndpoint=not a url", ""}) {
            assertThatThrownBy(() -> ConnectionString.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("malformed connection string").hasMessageNotContaining(KEY)
                    .hasMessageContaining("the portal's DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;"
                            + "EndpointSuffix=core.windows.net"); // the form a user copies
        }
        assertThatThrownBy(() -> ConnectionString.parse("AccountName=acc;AccountKey=not-base64!secret"))
                .hasMessageContaining("AccountKey is not base64").hasMessageNotContaining("secret");
    }

    @Test
    void blobReadsItsOwnEndpointFromTheSameString() {
        String cs = "DefaultEndpointsProtocol=http;AccountName=acc;AccountKey=" + KEY
                + ";TableEndpoint=http://127.0.0.1:10002/acc;BlobEndpoint=http://127.0.0.1:10000/acc/";
        assertThat(ConnectionString.forBlob(cs).endpoint()).isEqualTo("http://127.0.0.1:10000/acc");
        assertThat(ConnectionString.parse(cs).endpoint()).isEqualTo("http://127.0.0.1:10002/acc");
        assertThat(ConnectionString.forBlob(cs).keyBase64()).isEqualTo(KEY);
        assertThat(ConnectionString.forBlob("AccountName=acc;AccountKey=" + KEY).endpoint())
                .isEqualTo("https://acc.blob.core.windows.net");
        assertThat(ConnectionString.forBlob("UseDevelopmentStorage=true").endpoint())
                .isEqualTo("http://127.0.0.1:10000/devstoreaccount1");
        assertThatThrownBy(() -> ConnectionString.forBlob("TableEndpoint=https://acc.table.core.windows.net;"
                + "SharedAccessSignature=sv=1&sig=x")).hasMessageContaining("BlobEndpoint=").hasMessageNotContaining("sig=x");
        assertThat(ConnectionString.accountName("AccountKey=" + KEY + ";accountname=acc9")).isEqualTo("acc9");
        assertThat(ConnectionString.accountName("TableEndpoint=https://x;SharedAccessSignature=s")).isNull();
    }

    @Test
    void oneAliasSettingsGiveOneCredential() {
        java.util.Map<String, String> settings = new java.util.HashMap<>(java.util.Map.of("ENDPOINT", "https://t",
                "BLOB_ENDPOINT", "https://b", "CLIENT_ID", "id"));
        assertThat(AccountCredentials.resolve(settings::get, "ENDPOINT"))
                .isEqualTo(new AccountCredentials.WithEntraId("https://t", "id"));
        settings.put("SAS_TOKEN", "sv=1");
        assertThat(AccountCredentials.resolve(settings::get, "BLOB_ENDPOINT"))
                .isEqualTo(new AccountCredentials.WithSasToken("https://b", "sv=1"));
        settings.put("CONNECTION_STRING", "UseDevelopmentStorage=true");
        assertThat(AccountCredentials.resolve(settings::get, "ENDPOINT"))
                .isEqualTo(new AccountCredentials.WithConnectionString("UseDevelopmentStorage=true"));
        assertThat(AccountCredentials.resolve(name -> null, "ENDPOINT")).isNull();
    }
}
