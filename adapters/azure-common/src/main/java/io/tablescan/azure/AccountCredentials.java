package io.tablescan.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.DefaultAzureCredentialBuilder;
import java.util.function.Function;

/**
 * How an account alias signs in, read from its settings (TABLESCAN_ACCOUNT_&lt;ALIAS&gt;_&lt;NAME&gt;): the one reading
 * that the tables and the Blob adapters share. A connection string wins; else an endpoint with a SAS token; else
 * an endpoint alone, signed in with Microsoft Entra ID.
 */
public final class AccountCredentials {
    public static final String CONNECTION_STRING = "CONNECTION_STRING";
    public static final String SAS_TOKEN = "SAS_TOKEN";
    public static final String CLIENT_ID = "CLIENT_ID";

    private AccountCredentials() {}

    /** One alias's way to sign in. */
    public sealed interface Credential {}

    /** A connection string (its endpoints, and a key or a SAS token). */
    public record WithConnectionString(String connectionString) implements Credential {}

    /** An endpoint with a SAS token. */
    public record WithSasToken(String endpoint, String sasToken) implements Credential {}

    /** An endpoint with Microsoft Entra ID; {@code clientId}: a user-assigned identity, or null for the default. */
    public record WithEntraId(String endpoint, String clientId) implements Credential {
        public TokenCredential tokenCredential() {
            return entraId(clientId);
        }
    }

    /**
     * The credential {@code setting} (a name such as {@code SAS_TOKEN} to its value, null when unset) gives, with the
     * endpoint in the setting {@code endpointSetting} ({@code ENDPOINT} for tables, {@code BLOB_ENDPOINT} for Blob);
     * null when neither a connection string nor that endpoint is set.
     */
    public static Credential resolve(Function<String, String> setting, String endpointSetting) {
        String connectionString = setting.apply(CONNECTION_STRING);
        String endpoint = setting.apply(endpointSetting);
        String sasToken = setting.apply(SAS_TOKEN);
        if (connectionString != null) {
            return new WithConnectionString(connectionString);
        }
        if (endpoint == null) {
            return null;
        }
        return sasToken != null ? new WithSasToken(endpoint, sasToken) : new WithEntraId(endpoint, setting.apply(CLIENT_ID));
    }

    /**
     * DefaultAzureCredential (environment, workload identity, managed identity, ...); {@code clientId} picks a
     * user-assigned identity, managed or workload, or null (or blank) for the default one.
     */
    public static TokenCredential entraId(String clientId) {
        DefaultAzureCredentialBuilder credential = new DefaultAzureCredentialBuilder();
        if (clientId != null && !clientId.isBlank()) {
            credential.managedIdentityClientId(clientId.trim()).workloadIdentityClientId(clientId.trim());
        }
        return credential.build();
    }
}
