package io.tablescan.logging;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks credentials in text any library may log: a SAS signature ({@code sig=}), a Shared Key signature, an
 * account key in a connection string, a bearer or JWT access token, a client secret or assertion, and the tokens
 * of an identity endpoint's JSON answer. What names the credential stays, so a line still says what was sent.
 */
public final class Redaction {
    public static final String MASK = "REDACTED";

    /** A slash as text may hold it: plain, or escaped by a JSON encoder ({@code \\/}). */
    private static final String SLASH = "(?:/|\\\\/)";
    /** A double quote, plain or JSON-escaped (a JSON text logged inside a JSON log line). */
    private static final String QUOTE = "\\\\?\"";

    private static final Pattern SECRETS = Pattern.compile(String.join("|",
            // sig=… in a URL, also URL-encoded (once or twice) inside another URL; AccountKey=… and
            // SharedAccessSignature=… in connection strings; client_secret=… and client_assertion=… in form bodies
            "(?<kv>(?:sig|AccountKey|SharedAccessSignature|SharedAccessKey|client_secret|client_assertion"
                    + "|access_token|refresh_token)(?:=|%3D|%253D))(?:%(?!26|2526)[0-9A-F]{2}|[^&%\\s\"';,<>])+",
            // the Authorization header's value for Shared Key (account:signature) and bearer tokens
            "(?<sk>SharedKey(?:Lite)?\\s+[^:\\s]+:)(?:[A-Za-z0-9+=]|" + SLASH + ")+",
            "(?<bearer>Bearer\\s+)(?:[A-Za-z0-9._~+=-]|" + SLASH + ")+",
            // "access_token":"…" and the like in JSON, also JSON held in a JSON log line (quotes escaped)
            "(?<json>" + QUOTE + "(?:access_token|refresh_token|id_token|client_secret|client_assertion|AccountKey|sig)"
                    + QUOTE + "\\s*:\\s*" + QUOTE + ")(?:[^\"\\\\]|\\\\[^\"])*",
            // a JWT wherever it shows: three base64url parts, the first a JSON header ("eyJ")
            "(?<jwt>)eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*"), Pattern.CASE_INSENSITIVE);

    private Redaction() {}

    /** {@code text} with every credential found replaced by {@value #MASK}; the same string when none is found. */
    public static String mask(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        Matcher m = SECRETS.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        do {
            String keep = first(m, "kv", "sk", "bearer", "json", "jwt");
            m.appendReplacement(out, Matcher.quoteReplacement(keep + MASK));
        } while (m.find());
        m.appendTail(out);
        return out.toString();
    }

    private static String first(Matcher m, String... groups) {
        for (String group : groups) {
            String value = m.group(group);
            if (value != null) {
                return value;
            }
        }
        return "";
    }
}
