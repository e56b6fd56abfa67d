package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * One account however its endpoint is spelt (a copy onto its own source is refused by it): a connection string's
 * endpoint and the same URL with {@code :443}, another case or a trailing '/'; {@code localhost}, 127.0.0.1 and
 * ::1; and no two accounts taken for one (another account in an emulator's path, another port or scheme).
 */
class AccountEndpointTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private static AzureTableStore keyed(String endpoint) {
        return AzureTableStore.fromConnectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                + "AccountKey=" + KEY + ";TableEndpoint=" + endpoint + ";");
    }

    private static AzureTableStore sas(String endpoint) {
        return AzureTableStore.fromSasToken(endpoint, "sv=2024-01-01&sig=x");
    }

    @Test
    void oneAccountSpeltDifferentlyIsOneAccount() {
        AzureTableStore azure = AzureTableStore.fromConnectionString("AccountName=acc;AccountKey=" + KEY
                + ";EndpointSuffix=core.windows.net");
        for (String same : new String[] {"https://acc.table.core.windows.net", "https://acc.table.core.windows.net:443",
                "https://ACC.Table.Core.Windows.Net/", "HTTPS://acc.table.core.windows.net:443/",
                "https://acc.table.core.windows.net.", " https://acc.table.core.windows.net// "}) {
            assertThat(azure.sameAccount(sas(same))).as(same).isTrue();
            assertThat(sas(same).sameAccount(azure)).as(same).isTrue();
        }
        AzureTableStore azurite = keyed("http://127.0.0.1:10002/devstoreaccount1");
        for (String same : new String[] {"http://localhost:10002/devstoreaccount1", "http://LocalHost:10002/devstoreaccount1/",
                "http://[::1]:10002/devstoreaccount1", "http://[0:0:0:0:0:0:0:1]:10002/DevStoreAccount1",
                "http://127.0.0.1:10002/devstoreaccount1/"}) {
            assertThat(azurite.sameAccount(keyed(same))).as(same).isTrue();
        }
    }

    @Test
    void otherAccountsPortsAndSchemesAreOtherAccounts() {
        AzureTableStore azure = sas("https://acc.table.core.windows.net");
        for (String other : new String[] {"https://acc2.table.core.windows.net", "http://acc.table.core.windows.net",
                "https://acc.table.core.windows.net:8443", "https://acc.table.core.chinacloudapi.cn"}) {
            assertThat(azure.sameAccount(sas(other))).as(other).isFalse();
        }
        AzureTableStore azurite = keyed("http://127.0.0.1:10002/devstoreaccount1");
        for (String other : new String[] {"http://127.0.0.1:10002/devstoreaccount2", "http://localhost:10003/devstoreaccount1",
                "https://127.0.0.1:10002/devstoreaccount1", "http://10.0.0.1:10002/devstoreaccount1",
                "http://localhost.example.com:10002/devstoreaccount1"}) {
            assertThat(azurite.sameAccount(keyed(other))).as(other).isFalse();
        }
    }
}
