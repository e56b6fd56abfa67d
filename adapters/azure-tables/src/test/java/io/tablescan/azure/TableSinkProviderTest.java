package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.spi.SinkProvider;
import io.tablescan.table.AccountConnector;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The adapter registers itself: workers find the table sink and the account connector with no code naming them. */
class TableSinkProviderTest {
    @Test
    void theTableSinkIsFoundOnTheClassPath() {
        assertThat(ServiceLoader.load(SinkProvider.class).stream().map(p -> p.get().type())).contains("table");
        assertThat(ServiceLoader.load(SinkProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains(TableSinkProvider.class);
    }

    @Test
    void theAzureConnectorOpensAccounts() {
        assertThat(ServiceLoader.load(AccountConnector.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(AzureAccountConnector.class);
    }
}
