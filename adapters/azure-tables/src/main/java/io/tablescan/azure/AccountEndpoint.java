package io.tablescan.azure;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Which account a table endpoint names, however it is spelt: a copy onto its own source must be refused also when
 * the two sides spell one endpoint differently (a connection string's endpoint against the same URL given with
 * an explicit {@code :443}, {@code localhost} against {@code 127.0.0.1}, another case, a trailing '/').
 */
final class AccountEndpoint {
    private AccountEndpoint() {}

    /**
     * {@code scheme://host:port/path}: scheme and host lower-cased, the scheme's default port made explicit, every
     * loopback name one (they reach the same server), the path (the account of an emulator's path-style URL) without
     * trailing '/', lower-cased as account names are. An endpoint that is no URL is only trimmed and lower-cased.
     */
    static String identity(String endpoint) {
        String trimmed = endpoint.trim();
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            return trimmed.toLowerCase(Locale.ROOT);
        }
        if (uri.getScheme() == null || uri.getHost() == null) {
            return trimmed.toLowerCase(Locale.ROOT);
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("http") ? 80 : 443;
        String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("/+$", "");
        return scheme + "://" + host(uri.getHost()) + ":" + port + path.toLowerCase(Locale.ROOT);
    }

    /** The host lower-cased, without a DNS name's final dot; any loopback name or address as 127.0.0.1. */
    private static String host(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.equals("localhost") || loopbackAddress(h) ? "127.0.0.1" : h;
    }

    /** An address literal of the loopback (127.0.0.0/8, ::1 however written); a name is not looked up. */
    private static boolean loopbackAddress(String host) {
        boolean v6 = host.startsWith("[") && host.endsWith("]");
        if (!v6 && !host.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            return false;
        }
        try {
            return InetAddress.getByName(v6 ? host.substring(1, host.length() - 1) : host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
