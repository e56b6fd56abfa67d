package io.tablescan.azure;

import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An Azure Storage connection string, as far as one service needs it: that service's endpoint (tables or Blob)
 * and either the account key or a SAS token. The one parser of tables, Blob and exports. Problems are said in one
 * line that never repeats the string (it holds a secret).
 */
public record ConnectionString(String endpoint, String account, byte[] key, String sasToken) {
    /** Azurite's (and the old storage emulator's) well-known development account. */
    private static final String DEV_ACCOUNT = "devstoreaccount1";
    private static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    /** The service a connection string is read for: its endpoint's name and the emulator's port. */
    private enum Service {
        TABLE("TableEndpoint", "table", 10002), BLOB("BlobEndpoint", "blob", 10000);

        final String endpointKey;
        final String host;
        final int devPort;

        Service(String endpointKey, String host, int devPort) {
            this.endpointKey = endpointKey;
            this.host = host;
            this.devPort = devPort;
        }
    }

    /** For tables: the TableEndpoint, or one made of AccountName and EndpointSuffix. */
    public static ConnectionString parse(String connectionString) {
        return parse(connectionString, Service.TABLE);
    }

    /** For Blob: the BlobEndpoint, or one made of AccountName and EndpointSuffix. */
    public static ConnectionString forBlob(String connectionString) {
        return parse(connectionString, Service.BLOB);
    }

    /** The AccountName a connection string names (never its key), or null when it names none or is malformed. */
    public static String accountName(String connectionString) {
        try {
            String account = parts(connectionString).get("AccountName");
            return account != null && account.matches("[A-Za-z0-9]{1,64}") ? account : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The key as the portal shows it (base64), for clients that take it so; null with a SAS token. */
    public String keyBase64() {
        return key == null ? null : Base64.getEncoder().encodeToString(key);
    }

    private static Map<String, String> parts(String connectionString) {
        Map<String, String> parts = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String part : connectionString.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                parts.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            } else if (!part.isBlank()) {
                throw malformed(Service.TABLE);
            }
        }
        return parts;
    }

    private static ConnectionString parse(String connectionString, Service service) {
        Map<String, String> parts;
        try {
            parts = parts(connectionString);
        } catch (IllegalArgumentException e) {
            throw malformed(service);
        }
        if ("true".equalsIgnoreCase(parts.get("UseDevelopmentStorage"))) {
            String proxy = parts.getOrDefault("DevelopmentStorageProxyUri", "http://127.0.0.1");
            return new ConnectionString(trim(proxy) + ":" + service.devPort + "/" + DEV_ACCOUNT, DEV_ACCOUNT,
                    Base64.getDecoder().decode(DEV_KEY), null);
        }
        String account = parts.get("AccountName");
        String key = parts.get("AccountKey");
        String sas = parts.get("SharedAccessSignature");
        String endpoint = parts.get(service.endpointKey);
        if (endpoint == null && account != null) {
            endpoint = parts.getOrDefault("DefaultEndpointsProtocol", "https").toLowerCase(Locale.ROOT) + "://" + account
                    + "." + service.host + "." + parts.getOrDefault("EndpointSuffix", "core.windows.net");
        }
        boolean keyed = account != null && key != null && !key.isEmpty();
        if (endpoint == null || !(keyed || sas != null && !sas.isEmpty())) {
            throw malformed(service);
        }
        try {
            java.net.URI uri = new java.net.URI(trim(endpoint));
            if (uri.getScheme() == null || uri.getHost() == null || uri.getQuery() != null) {
                throw malformed(service);
            }
        } catch (java.net.URISyntaxException e) {
            throw malformed(service);
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

    private static IllegalArgumentException malformed(Service service) {
        return new IllegalArgumentException("malformed connection string (expected the portal's "
                + "DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;EndpointSuffix=core.windows.net, or "
                + "AccountName=...;AccountKey=...;" + service.endpointKey + "=..., or UseDevelopmentStorage=true)");
    }
}
