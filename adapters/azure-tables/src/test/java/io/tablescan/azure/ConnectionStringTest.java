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
                    .hasMessageStartingWith("malformed connection string").hasMessageNotContaining(KEY);
        }
        assertThatThrownBy(() -> ConnectionString.parse("AccountName=acc;AccountKey=not-base64!secret"))
                .hasMessageContaining("AccountKey is not base64").hasMessageNotContaining("secret");
    }
}
