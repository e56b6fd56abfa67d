package io.tablescan.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables of one Azure storage account (or Azurite): one request per call, through the REST API
 * ({@link RestTableStore}), signed with the account key, a SAS token or a Microsoft Entra ID token.
 */
public final class AzureTableStore implements TableStore {
    /** The service's continuation headers look like {@code 1!12!cGFydGl0aW9uMQ--}: base64 with '-' padding. */
    private static final Pattern ENCODED_KEY = Pattern.compile("\\d+!\\d+!(.*)");
    /** The start of a failure's message for a 404 with the service's error code (every store's, see notFound). */
    private static final Pattern SERVICE_NOT_FOUND = Pattern.compile("HTTP 404 (TableNotFound|ResourceNotFound)\\b");

    private final TableStore tables;
    private final String endpoint;

    private AzureTableStore(TableStore tables, String endpoint) {
        this.tables = tables;
        this.endpoint = endpoint;
    }

    /** Throws IllegalArgumentException, without echoing the connection string, when it is malformed. */
    public static AzureTableStore fromConnectionString(String connectionString) {
        ConnectionString parsed = ConnectionString.parse(connectionString);
        Authorization authorization = parsed.key() != null ? new SharedKeyLite(parsed.account(), parsed.key())
                : Authorization.sasToken(parsed.sasToken());
        return rest(parsed.endpoint(), authorization);
    }

    /** An endpoint with a SAS token; the token is never echoed. */
    public static AzureTableStore fromSasToken(String endpoint, String sasToken) {
        URI uri = endpoint(endpoint);
        String token = sasToken.trim();
        if (token.isEmpty() || token.contains("#") || token.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("malformed SAS token for " + uri.getHost());
        }
        return rest(uri.toString(), Authorization.sasToken(token));
    }

    /**
     * An endpoint with Microsoft Entra ID: DefaultAzureCredential (environment, workload identity, managed
     * identity, ...); {@code clientId} picks a user-assigned identity, or null for the default one.
     */
    public static AzureTableStore fromEntraId(String endpoint, String clientId) {
        URI uri = endpoint(endpoint);
        if (!"https".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("Entra ID sign-in needs an https endpoint, got " + uri.getScheme() + "://");
        }
        return rest(uri.toString(), new EntraIdToken(AccountCredentials.entraId(clientId)));
    }

    /**
     * Ends the HTTP clients of every store made in this process: for a command about to exit. An idle client's
     * selector thread waits in native code, and the JVM's exit waits up to 300 ms for such threads to return.
     */
    public static void closeAll() {
        RestTableStore.shutdownClients(Duration.ofMillis(100));
    }

    static AzureTableStore rest(String endpoint, Authorization authorization) {
        return new AzureTableStore(new RestTableStore(RestTableStore::httpClient, endpoint, authorization), endpoint);
    }

    /**
     * A store through the Azure SDK from a client builder the caller configured (its own HTTP client, say);
     * tablescan's retry stance is added: one request per call.
     */
    public static AzureTableStore build(TableServiceClientBuilder builder) {
        SdkTableStore sdk = new SdkTableStore(builder.retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .buildClient());
        return new AzureTableStore(sdk, sdk.endpoint());
    }

    private static URI endpoint(String endpoint) {
        try {
            URI uri = new URI(endpoint.trim());
            if (uri.getScheme() == null || uri.getHost() == null || uri.getQuery() != null) {
                throw new URISyntaxException(endpoint, "not an absolute URL without a query");
            }
            return uri;
        } catch (URISyntaxException e) {
            // A query could hold a SAS token: never echo it.
            throw new IllegalArgumentException("malformed endpoint (expected https://ACCOUNT.table.core.windows.net,"
                    + " without a query)");
        }
    }

    /**
     * Whether {@code other} reaches the same account as this store, however either spells its endpoint (see
     * {@link AccountEndpoint#identity}): a copy onto its own source is refused by it.
     */
    public boolean sameAccount(AzureTableStore other) {
        return AccountEndpoint.identity(endpoint).equals(AccountEndpoint.identity(other.endpoint));
    }

    /** Azure Cosmos DB for Table's host names, in Azure's clouds: {@code ACCOUNT.table.cosmos.azure.com} and others. */
    private static final java.util.regex.Pattern COSMOS_HOST = java.util.regex.Pattern.compile(
            "(?i)[^.]+\\.table\\.cosmos(db)?\\.(azure\\.com|azure\\.cn|azure\\.us|windows\\.net)\\.?");

    /**
     * Whether the endpoint is Azure Cosmos DB for Table's (by its host name), whose queries return rows in no key
     * order: a scan that infers from a page's order which keys it has finished would skip rows there.
     */
    @Override
    public boolean rowsInKeyOrder() {
        return !cosmos();
    }

    public boolean cosmos() {
        try {
            String host = java.net.URI.create(endpoint.trim()).getHost();
            return host != null && COSMOS_HOST.matcher(host).matches();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The account's table endpoint without a trailing '/', lower-cased: two stores with the same endpoint are
     * the same account (table names are compared without case too).
     */
    public String endpoint() {
        return (endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint).toLowerCase(Locale.ROOT);
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        return signedIn(table, () -> tables.query(table, query, options, from));
    }

    @Override
    public Row read(String table, String partitionKey, String rowKey) {
        return signedIn(table, () -> tables.read(table, partitionKey, rowKey));
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        signedIn(table, () -> { tables.upsert(table, partitionKey, rows); return null; });
    }

    @Override
    public List<String> listTables() {
        return signedIn("(the list of tables)", tables::listTables);
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        return signedIn(table, () -> tables.delete(table, partitionKey, rowKey));
    }

    @Override
    public void merge(String table, String partitionKey, List<Row> rows) {
        signedIn(table, () -> { tables.merge(table, partitionKey, rows); return null; });
    }

    @Override
    public Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
        return signedIn(table, () -> tables.writeIfUnchanged(table, partitionKey, rows, etags));
    }

    @Override
    public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
        return signedIn(table, () -> tables.deleteIfUnchanged(table, partitionKey, rows));
    }

    @Override
    public boolean deleteTable(String table) {
        return signedIn(table, () -> tables.deleteTable(table));
    }

    @Override
    public void createTableIfNotExists(String table) {
        signedIn(table, () -> { tables.createTableIfNotExists(table); return null; });
    }

    @Override
    public boolean tableExists(String table) {
        try {
            return signedIn(table, () -> tables.tableExists(table));
        } catch (TableStoreException e) {
            if (e.status() == 404) { // not the service's "no such table", which names its error code
                throw new TableStoreException("the endpoint " + endpoint + " answered HTTP 404 without a table "
                        + "service error code: check the endpoint URL (a wrong path, or a proxy, answers so)", 404,
                        false, null);
            }
            throw e;
        }
    }

    /** Runs a call; an Entra ID credential that finds no identity, or is refused, fails it at once (no retry helps). */
    private static <T> T signedIn(String table, Supplier<T> call) {
        try {
            return call.get();
        } catch (ClientAuthenticationException e) {
            String reason = e.getMessage() == null ? "" : withoutQuery(e.getMessage().lines().findFirst().orElse(""));
            throw new TableStoreException("Entra ID sign-in failed on table " + table + ": " + reason, 401, false, null);
        } catch (TableStoreException e) {
            throw e;
        } catch (RuntimeException e) {
            throw ioError(table, e); // a credential that could not reach its identity endpoint, say
        }
    }

    /** A request that reached no service, or lost it (refused, reset, timeout, DNS): worth retrying. */
    static TableStoreException ioError(String table, Throwable e) {
        return new TableStoreException("I/O error on table " + table + ": " + ioCause(e), 0, true, null);
    }

    /**
     * What went wrong, in a few words: a connection that could not be made says so in words, not a Java class
     * (the JDK's HTTP client has it end in a bare ClosedChannelException), else the innermost cause, its message
     * without a URL's query.
     */
    static String ioCause(Throwable e) {
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.http.HttpConnectTimeoutException) {
                return "the connection timed out";
            }
            if (t instanceof java.net.ConnectException) {
                return "cannot connect: nothing answers at the endpoint, or it is unreachable";
            }
            if (t instanceof java.net.UnknownHostException) {
                return "unknown host" + (t.getMessage() == null ? "" : " " + withoutQuery(t.getMessage()));
            }
            root = t;
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : " " + withoutQuery(root.getMessage()));
    }

    /** Runs a request; false when the service answered that the table or row is not there (see {@link #notFound}). */
    static boolean unlessNotFound(Runnable request) {
        try {
            request.run();
            return true;
        } catch (TableStoreException e) {
            if (notFound(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Whether the table service itself answered that a table or row is not there: a 404 with its error code
     * ({@code TableNotFound}, {@code ResourceNotFound}). A 404 without one came from something else at the endpoint (a
     * wrong path in it, a proxy) and says nothing of the table.
     */
    public static boolean notFound(TableStoreException e) {
        return e.status() == 404 && e.getMessage() != null && SERVICE_NOT_FOUND.matcher(e.getMessage()).lookingAt();
    }

    /** Cuts a message at the first '?', so that a URL's query (a SAS token) is never repeated. */
    static String withoutQuery(String message) {
        int q = message.indexOf('?');
        String cut = q < 0 ? message : message.substring(0, q) + "?...";
        return cut.length() > 200 ? cut.substring(0, 200) + "..." : cut;
    }

    /** A continuation token: the NextPartitionKey and NextRowKey headers joined with ';' (as the SDK joins them). */
    static Continuation continuation(String token) {
        if (token == null) {
            return null;
        }
        int split = token.indexOf(';');
        String pk = decode(split < 0 ? token : token.substring(0, split));
        String rk = split < 0 ? null : decode(token.substring(split + 1));
        return new Continuation(token, pk, pk == null ? null : rk);
    }

    private static String decode(String header) {
        if (header == null || header.isEmpty() || header.equals("null")) {
            return null;
        }
        Matcher m = ENCODED_KEY.matcher(header);
        String body = m.matches() ? m.group(1) : header;
        try {
            return new String(Base64.getDecoder().decode(body.replace('-', '=')), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null; // an opaque form we cannot read: the scanner falls back to the rows it has seen
        }
    }
}
