package io.tablescan.azure;

import java.net.http.HttpRequest;

/** How a request proves who sends it: the account key, a SAS token in the URL, or a Microsoft Entra ID token. */
interface Authorization {
    /** What every request's URL carries after its own query: a SAS token, else "". */
    default String query() {
        return "";
    }

    /** Adds the headers that authorise a request; {@code rawPath} is its URL's path, percent-encoded as sent. */
    void authorize(HttpRequest.Builder request, String rawPath);

    /** A SAS token: the URL is the proof. */
    static Authorization sasToken(String token) {
        String query = token.startsWith("?") ? token.substring(1) : token;
        return new Authorization() {
            @Override
            public String query() {
                return query;
            }

            @Override
            public void authorize(HttpRequest.Builder request, String rawPath) {}
        };
    }
}
