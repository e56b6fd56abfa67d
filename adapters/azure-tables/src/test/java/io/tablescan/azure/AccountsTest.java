package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.table.Accounts;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which credential an alias resolves to, and that no error repeats a secret. */
class AccountsTest {
    private static final String SAS = "sv=2020-08-04&ss=t&srt=sco&sp=rl&se=2099-01-01T00:00:00Z&sig=c2VjcmV0LXNpZ25hdHVyZQ%3D";

    private static Accounts accounts(Map<String, String> env) {
        return new Accounts(env::get);
    }

    @Test
    void eachKindOfCredentialBuildsAStore() {
        Accounts accounts = accounts(Map.of(
                "TABLESCAN_ACCOUNT_KEYED_CONNECTION_STRING", "UseDevelopmentStorage=true",
                "TABLESCAN_ACCOUNT_SIGNED_ENDPOINT", "https://example.table.core.windows.net",
                "TABLESCAN_ACCOUNT_SIGNED_SAS_TOKEN", SAS,
                "TABLESCAN_ACCOUNT_MY_IDENTITY_ENDPOINT", "https://example.table.core.windows.net",
                "TABLESCAN_ACCOUNT_MY_IDENTITY_CLIENT_ID", "00000000-0000-0000-0000-000000000001"));
        assertThat(accounts.get("keyed")).isInstanceOf(AzureTableStore.class);
        assertThat(accounts.get("signed")).isInstanceOf(AzureTableStore.class);
        assertThat(accounts.get("my-identity")).as("'-' becomes '_' in the variable").isInstanceOf(AzureTableStore.class);
        assertThat(accounts.configured("signed")).isTrue();
        assertThat(accounts.configured("other")).isFalse();
    }

    @Test
    void anUnknownAliasNamesTheVariablesToSet() {
        assertThatThrownBy(() -> accounts(Map.of()).get("archive"))
                .isInstanceOf(Accounts.UnknownAccountException.class)
                .hasMessageContaining("TABLESCAN_ACCOUNT_ARCHIVE_CONNECTION_STRING")
                .hasMessageContaining("TABLESCAN_ACCOUNT_ARCHIVE_ENDPOINT")
                .hasMessageContaining("TABLESCAN_ACCOUNT_ARCHIVE_SAS_TOKEN");
    }

    @Test
    void entraIdNeedsHttpsBecauseTokensMustNotTravelInClearText() {
        assertThatThrownBy(() -> accounts(Map.of("TABLESCAN_ACCOUNT_A_ENDPOINT", "http://127.0.0.1:10002/acct")).get("a"))
                .hasMessageContaining("https");
    }

    @Test
    void anEndpointWithATokenInItsQueryIsRefusedWithoutRepeatingIt() {
        assertThatThrownBy(() -> accounts(Map.of("TABLESCAN_ACCOUNT_A_ENDPOINT", "https://x.table.core.windows.net/?" + SAS,
                "TABLESCAN_ACCOUNT_A_SAS_TOKEN", SAS)).get("a"))
                .hasMessageContaining("malformed endpoint")
                .hasMessageNotContaining("sig=").hasMessageNotContaining("c2VjcmV0");
    }

    @Test
    void variablesOfEveryCredentialKindAreRecognised() {
        assertThat(Accounts.isAccountVariable("TABLESCAN_ACCOUNT_PROD_SAS_TOKEN")).isTrue();
        assertThat(Accounts.isAccountVariable("TABLESCAN_ACCOUNT_PROD_ENDPOINT")).isTrue();
        assertThat(Accounts.isAccountVariable("TABLESCAN_ACCOUNT_PROD_CLIENT_ID")).isTrue();
        assertThat(Accounts.isAccountVariable("TABLESCAN_ACCOUNT_PROD_PASSWORD")).isFalse();
    }
}
