package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.exception.ClientAuthenticationException;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.TableStoreException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Shared Key Lite signatures, cached Entra ID tokens, and a refused sign-in said in one line without retry. */
class RequestAuthorizationTest {
    @Test
    void sharedKeyLiteSignsTheDateAndTheAccountsResource() throws Exception {
        byte[] key = {9, 8, 7, 6};
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1/acc/t()"));
        new SharedKeyLite("acc", key).authorize(request, "/acc/t()");
        HttpRequest built = request.build();

        String date = built.headers().firstValue("x-ms-date").orElseThrow();
        ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME); // a valid RFC 1123 date
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        String expected = Base64.getEncoder().encodeToString(mac.doFinal((date + "\n/acc/acc/t()").getBytes(StandardCharsets.UTF_8)));
        assertThat(built.headers().firstValue("Authorization")).contains("SharedKeyLite acc:" + expected);
    }

    @Test
    void anEntraIdTokenIsFetchedOnceAndAgainOnlyNearItsExpiry() {
        List<OffsetDateTime> expiries = new ArrayList<>(List.of(OffsetDateTime.now().plusMinutes(2),
                OffsetDateTime.now().plusHours(1)));
        AtomicInteger fetched = new AtomicInteger();
        List<String> scopes = new ArrayList<>();
        TokenCredential credential = context -> {
            scopes.addAll(context.getScopes());
            int n = fetched.incrementAndGet();
            return Mono.just(new AccessToken("token" + n, expiries.get(Math.min(n - 1, expiries.size() - 1))));
        };
        EntraIdToken token = new EntraIdToken(credential);

        List<String> headers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://acc.table.core.windows.net/t()"));
            token.authorize(request, "/t()");
            headers.add(request.build().headers().firstValue("Authorization").orElseThrow());
        }
        // The first expires within 5 minutes: used once as fetched, then replaced; the second is kept.
        assertThat(headers).containsExactly("Bearer token1", "Bearer token2", "Bearer token2");
        assertThat(fetched).hasValue(2);
        assertThat(scopes).containsOnly("https://storage.azure.com/.default");
    }

    @Test
    void aRefusedEntraIdSignInFailsTheCallAtOnceWithoutRetry() {
        TokenCredential refused = context -> Mono.error(new ClientAuthenticationException(
                "ManagedIdentityCredential authentication unavailable. https://login/?secret=1\nmore", null));
        AzureTableStore store = AzureTableStore.rest("https://127.0.0.1:1/acc", new EntraIdToken(refused));

        assertThatThrownBy(() -> store.query("t", KeyRange.ALL, new QueryOptions(1, null, null), null))
                .isInstanceOfSatisfying(TableStoreException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.isTransient()).isFalse();
                    assertThat(e.getMessage()).startsWith("Entra ID sign-in failed on table t: ManagedIdentityCredential")
                            .doesNotContain("secret").doesNotContain("more");
                });
    }

    @Test
    void theServicesErrorCodeIsFoundInJsonAndXmlBodies() {
        assertThat(RestTableStore.errorCode("{\"odata.error\":{\"code\":\"TableNotFound\",\"message\":{}}}"))
                .isEqualTo("TableNotFound");
        assertThat(RestTableStore.errorCode("<?xml?><Error><Code>AuthenticationFailed</Code></Error>"))
                .isEqualTo("AuthenticationFailed");
        assertThat(RestTableStore.errorCode("")).isNull();
    }

    @Test
    void urlTextKeepsOnlyUnreservedCharacters() {
        assertThat(UrlText.encode("abc-._~09")).isEqualTo("abc-._~09");
        assertThat(UrlText.encode("a b'+&=%/\u00e9\uD83D\uDE00")).isEqualTo("a%20b%27%2B%26%3D%25%2F%C3%A9%F0%9F%98%80");
    }
}
