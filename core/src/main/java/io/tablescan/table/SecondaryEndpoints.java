package io.tablescan.table;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The read-access secondary endpoint of an account (RA-GRS, RA-GZRS): the service's is the primary's host with
 * {@code -secondary} after the account name ({@code acct.table.core.windows.net} becomes
 * {@code acct-secondary.table.core.windows.net}); any other endpoint (an emulator, a custom domain) has none that
 * can be derived, and is given as {@code TABLESCAN_ACCOUNT_<ALIAS>_SECONDARY_ENDPOINT}.
 */
public final class SecondaryEndpoints {
    private SecondaryEndpoints() {}

    /** The secondary of an Azure table endpoint, or null when it is not one ({@code http://127.0.0.1:10002/...}). */
    public static String derive(String primary) {
        if (primary == null) {
            return null;
        }
        URI uri;
        try {
            uri = URI.create(primary.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
        String host = uri.getHost();
        int dot = host == null ? -1 : host.indexOf('.');
        if (dot <= 0 || !host.substring(dot).toLowerCase(Locale.ROOT).startsWith(".table.")
                || host.substring(0, dot).endsWith("-secondary")) {
            return null;
        }
        String secondary = host.substring(0, dot) + "-secondary" + host.substring(dot);
        return uri.getScheme() + "://" + secondary + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /**
     * The table endpoint a connection string names: its TableEndpoint, else the one its AccountName and
     * EndpointSuffix make; null when neither (the development storage shortcut).
     */
    public static String primaryOf(String connectionString) {
        String account = null;
        String suffix = "core.windows.net";
        String protocol = "https";
        for (String part : connectionString.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            switch (key.toLowerCase(Locale.ROOT)) {
                case "tableendpoint" -> {
                    return value;
                }
                case "accountname" -> account = value;
                case "endpointsuffix" -> suffix = value;
                case "defaultendpointsprotocol" -> protocol = value;
                default -> { }
            }
        }
        return account == null ? null : protocol + "://" + account + ".table." + suffix;
    }

    /** The connection string with its table endpoint replaced by {@code endpoint} (its credentials kept). */
    public static String withTableEndpoint(String connectionString, String endpoint) {
        List<String> parts = new ArrayList<>();
        for (String part : connectionString.split(";")) {
            if (!part.isBlank() && !part.strip().toLowerCase(Locale.ROOT).startsWith("tableendpoint=")) {
                parts.add(part);
            }
        }
        parts.add("TableEndpoint=" + endpoint);
        return String.join(";", parts);
    }
}
