package io.tablescan.azure;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import java.net.http.HttpRequest;
import java.time.OffsetDateTime;

/**
 * A Microsoft Entra ID bearer token for Azure Storage, fetched from a credential (DefaultAzureCredential:
 * environment, workload identity, managed identity, ...) and kept until five minutes before it expires.
 */
final class EntraIdToken implements Authorization {
    private static final TokenRequestContext STORAGE =
            new TokenRequestContext().addScopes("https://storage.azure.com/.default");

    private final TokenCredential credential;
    private volatile AccessToken token;

    EntraIdToken(TokenCredential credential) {
        this.credential = credential;
    }

    @Override
    public void authorize(HttpRequest.Builder request, String rawPath) {
        request.setHeader("Authorization", "Bearer " + token().getToken());
    }

    private AccessToken token() {
        AccessToken current = token;
        if (current == null || expiresSoon(current)) {
            synchronized (this) {
                current = token;
                if (current == null || expiresSoon(current)) {
                    current = credential.getTokenSync(STORAGE);
                    token = current;
                }
            }
        }
        return current;
    }

    private static boolean expiresSoon(AccessToken token) {
        return token.getExpiresAt() == null || token.getExpiresAt().isBefore(OffsetDateTime.now().plusMinutes(5));
    }
}
