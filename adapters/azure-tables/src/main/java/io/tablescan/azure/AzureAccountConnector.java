package io.tablescan.azure;

import io.tablescan.table.AccountConnector;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.util.function.Function;

/**
 * Opens an Azure account by the first credential configured: a connection string; an endpoint with a SAS
 * token; an endpoint alone, signed in with Microsoft Entra ID (optionally a user-assigned identity's client id).
 */
public final class AzureAccountConnector implements AccountConnector {
    @Override
    public TableStore open(Function<String, String> setting) {
        return switch (AccountCredentials.resolve(setting, Accounts.ENDPOINT)) {
            case null -> null;
            case AccountCredentials.WithConnectionString c -> AzureTableStore.fromConnectionString(c.connectionString());
            case AccountCredentials.WithSasToken s -> AzureTableStore.fromSasToken(s.endpoint(), s.sasToken());
            case AccountCredentials.WithEntraId e -> AzureTableStore.fromEntraId(e.endpoint(), e.clientId());
        };
    }
}
