package io.tablescan.azure;

import io.tablescan.table.AccountConnector;
import io.tablescan.table.Accounts;
import io.tablescan.table.TableStore;
import java.util.function.Function;

/**
 * Opens an Azure account by the first credential configured: a connection string; an endpoint with a SAS
 * token; an endpoint alone, signed in with Microsoft Entra ID (optionally a user-assigned identity's client id).
 */
public final class AzureAccountConnector implements AccountConnector {
    @Override
    public TableStore open(Function<String, String> setting) {
        String connectionString = setting.apply(Accounts.CONNECTION_STRING);
        String endpoint = setting.apply(Accounts.ENDPOINT);
        String sasToken = setting.apply(Accounts.SAS_TOKEN);
        if (connectionString != null) {
            return AzureTableStore.fromConnectionString(connectionString);
        }
        if (endpoint != null && sasToken != null) {
            return AzureTableStore.fromSasToken(endpoint, sasToken);
        }
        if (endpoint != null) {
            return AzureTableStore.fromEntraId(endpoint, setting.apply(Accounts.CLIENT_ID));
        }
        return null;
    }
}
