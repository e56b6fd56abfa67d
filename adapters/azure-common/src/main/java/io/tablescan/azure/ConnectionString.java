package io.tablescan.azure;

import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An Azure Storage connection string, as far as tables need it: the table endpoint and either the account
 * key or a SAS token. Problems are said in one line that never repeats the string (it holds a secret).
 */
record ConnectionString(String endpoint, String account, byte[] key, String sasToken) {
    /** Azurite's (and the old storage emulator's) well-known development account. */
    private static final String DEV_ACCOUNT = "devstoreaccount1";
    private static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    static ConnectionString parse(String connectionString) {
        Map<String, String> parts = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String part : connectionString.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                parts.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            } else if (!part.isBlank()) {
                throw malformed();
            }
        }
        if ("true".equalsIgnoreCase(parts.get("UseDevelopmentStorage"))) {
            String proxy = parts.getOrDefault("DevelopmentStorageProxyUri", "http://127.0.0.1");
            return new ConnectionString(trim(proxy) + ":10002/" + DEV_ACCOUNT, DEV_ACCOUNT,
                    Base64.getDecoder().decode(DEV_KEY), null);
        }
        String account = parts.get("AccountName");
        String key = parts.get("AccountKey");
        String sas = parts.get("SharedAccessSignature");
        String endpoint = parts.get("TableEndpoint");
        if (endpoint == null && account != null) {
            endpoint = parts.getOrDefault("DefaultEndpointsProtocol", "https").toLowerCase(Locale.ROOT) + "://" + account
                    + ".table." + parts.getOrDefault("EndpointSuffix", "core.windows.net");
        }
        boolean keyed = account != null && key != null && !key.isEmpty();
        if (endpoint == null || !(keyed || sas != null && !sas.isEmpty())) {
            throw malformed();
        }
        try {
            java.net.URI uri = new java.net.URI(trim(endpoint));
            if (uri.getScheme() == null || uri.getHost() == null || uri.getQuery() != null) {
                throw malformed();
            }
        } catch (java.net.URISyntaxException e) {
            throw malformed();
        }
        if (!keyed) {
            return new ConnectionString(trim(endpoint), account, null, sas.startsWith("?") ? sas.substring(1) : sas);
        }
        try {
            return new ConnectionString(trim(endpoint), account, Base64.getDecoder().decode(key), null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the connection string's AccountKey is not base64 (copy it again "
                    + "from the portal's access keys)");
        }
    }

    private static String trim(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static IllegalArgumentException malformed() {
        return new IllegalArgumentException("malformed connection string (expected AccountName=...;AccountKey=...;"
                + "TableEndpoint=... or UseDevelopmentStorage=true)");
    }
}
