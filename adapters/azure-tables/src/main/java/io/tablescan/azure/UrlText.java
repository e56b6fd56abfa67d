package io.tablescan.azure;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of a URL's path segment or query value: every byte of UTF-8 but {@code A-Za-z0-9-._~}. */
final class UrlText {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UrlText() {}

    static String encode(String text) {
        int i = 0;
        while (i < text.length() && unreserved(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (byte b : text.substring(i).getBytes(StandardCharsets.UTF_8)) {
            if (b >= 0 && unreserved((char) b)) {
                out.append((char) b);
            } else {
                out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
        }
        return out.toString();
    }

    private static boolean unreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                || c == '~';
    }
}
