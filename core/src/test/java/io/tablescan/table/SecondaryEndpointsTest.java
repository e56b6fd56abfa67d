package io.tablescan.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The read-access secondary endpoint: derived from an Azure table endpoint, or set for an alias. */
class SecondaryEndpointsTest {
    @Test
    void anAzureEndpointsSecondaryIsTheAccountNameWithSecondary() {
        assertThat(SecondaryEndpoints.derive("https://acct.table.core.windows.net"))
                .isEqualTo("https://acct-secondary.table.core.windows.net");
        assertThat(SecondaryEndpoints.derive("https://acct.table.core.windows.net/"))
                .isEqualTo("https://acct-secondary.table.core.windows.net/");
        assertThat(SecondaryEndpoints.derive("https://acct.table.core.chinacloudapi.cn:443"))
                .isEqualTo("https://acct-secondary.table.core.chinacloudapi.cn:443");
        assertThat(SecondaryEndpoints.derive("http://127.0.0.1:10002/devstoreaccount1")).as("an emulator").isNull();
        assertThat(SecondaryEndpoints.derive("https://tables.example.com")).as("a custom domain").isNull();
        assertThat(SecondaryEndpoints.derive("https://acct-secondary.table.core.windows.net")).isNull();
        assertThat(SecondaryEndpoints.derive(null)).isNull();
    }

    @Test
    void aConnectionStringsEndpointIsItsTableEndpointOrItsAccountsAndTheSecondaryReplacesIt() {
        String cs = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.windows.net";
        assertThat(SecondaryEndpoints.primaryOf(cs)).isEqualTo("https://acct.table.core.windows.net");
        assertThat(SecondaryEndpoints.primaryOf("AccountName=a;TableEndpoint=https://x.table.core.windows.net/;"))
                .isEqualTo("https://x.table.core.windows.net/");
        assertThat(SecondaryEndpoints.primaryOf("UseDevelopmentStorage=true")).isNull();
        assertThat(SecondaryEndpoints.withTableEndpoint(cs + ";TableEndpoint=https://acct.table.core.windows.net",
                "https://acct-secondary.table.core.windows.net")).isEqualTo("DefaultEndpointsProtocol=https;"
                + "AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.windows.net;"
                + "TableEndpoint=https://acct-secondary.table.core.windows.net");
    }

    @Test
    void anAliasesSecondaryIsTheOneSetElseTheOneDerivedElseAMistakeThatNamesTheVariable() {
        Map<String, String> env = Map.of(
                "TABLESCAN_ACCOUNT_PROD_ENDPOINT", "https://prod.table.core.windows.net",
                "TABLESCAN_ACCOUNT_LOCAL_CONNECTION_STRING", "AccountName=devstoreaccount1;AccountKey=c2VjcmV0;"
                        + "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1",
                "TABLESCAN_ACCOUNT_SET_CONNECTION_STRING", "AccountName=devstoreaccount1;AccountKey=c2VjcmV0;"
                        + "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1",
                "TABLESCAN_ACCOUNT_SET_SECONDARY_ENDPOINT", "http://127.0.0.1:10012/devstoreaccount1");
        Accounts accounts = new Accounts(env::get);

        assertThat(accounts.secondaryEndpoint("prod")).isEqualTo("https://prod-secondary.table.core.windows.net");
        assertThat(accounts.secondaryEndpoint("set")).isEqualTo("http://127.0.0.1:10012/devstoreaccount1");
        assertThatThrownBy(() -> accounts.secondaryEndpoint("local")).isInstanceOf(Accounts.UnknownAccountException.class)
                .hasMessageContaining("TABLESCAN_ACCOUNT_LOCAL_SECONDARY_ENDPOINT").hasMessageNotContaining("c2VjcmV0");
        assertThat(Accounts.isAccountVariable("TABLESCAN_ACCOUNT_SET_SECONDARY_ENDPOINT")).isTrue();
    }
}
