package io.tablescan.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.PagedIterable;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.identity.DefaultAzureCredentialBuilder;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.table.TableStore;
import io.tablescan.table.TableStoreException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The tables of one Azure storage account (or Azurite), through the Azure SDK: one request per call. */
public final class AzureTableStore implements TableStore {
    /** The service's continuation headers look like {@code 1!12!cGFydGl0aW9uMQ--}: base64 with '-' padding. */
    private static final Pattern ENCODED_KEY = Pattern.compile("\\d+!\\d+!(.*)");

    private final TableServiceClient service;
    private final Map<String, TableClient> clients = new ConcurrentHashMap<>();

    private AzureTableStore(TableServiceClient service) {
        this.service = service;
    }

    /** Throws IllegalArgumentException, without echoing the connection string, when it is malformed. */
    public static AzureTableStore fromConnectionString(String connectionString) {
        AzureTableStore store;
        try {
            store = build(new TableServiceClientBuilder().connectionString(connectionString));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed connection string (expected AccountName=...;AccountKey=...;"
                    + "TableEndpoint=... or UseDevelopmentStorage=true)");
        }
        checkAccountKey(connectionString);
        return store;
    }

    /**
     * The SDK accepts any AccountKey and fails only when it signs a request, as an I/O error that looks worth
     * retrying: a key that is not base64 is a typing mistake, said at once.
     */
    private static void checkAccountKey(String connectionString) {
        for (String part : connectionString.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).trim().equalsIgnoreCase("AccountKey")) {
                try {
                    Base64.getDecoder().decode(part.substring(eq + 1).trim());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("the connection string's AccountKey is not base64 (copy it again "
                            + "from the portal's access keys)");
                }
            }
        }
    }

    /**
     * The account's table endpoint without a trailing '/', lower-cased: two stores with the same endpoint are
     * the same account (table names are compared without case too).
     */
    public String endpoint() {
        String url = service.getServiceEndpoint();
        return (url.endsWith("/") ? url.substring(0, url.length() - 1) : url).toLowerCase(java.util.Locale.ROOT);
    }

    /** An endpoint with a SAS token; the token is never echoed. */
    public static AzureTableStore fromSasToken(String endpoint, String sasToken) {
        URI uri = endpoint(endpoint);
        try {
            return build(new TableServiceClientBuilder().endpoint(uri.toString()).sasToken(sasToken.trim()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed SAS token for " + uri.getHost());
        }
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
        DefaultAzureCredentialBuilder credential = new DefaultAzureCredentialBuilder();
        if (clientId != null && !clientId.isBlank()) {
            credential.managedIdentityClientId(clientId.trim()).workloadIdentityClientId(clientId.trim());
        }
        return build(new TableServiceClientBuilder().endpoint(uri.toString()).credential(credential.build()));
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

    /** A store from a configured client builder (a custom HTTP client, say); adds tablescan's retry stance. */
    public static AzureTableStore build(TableServiceClientBuilder builder) {
        // tablescan retries by itself (it knows the item and its budget); one request per call here.
        return new AzureTableStore(builder.retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .buildClient());
    }

    @Override
    public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
        return call(table, () -> {
            ListEntitiesOptions list = new ListEntitiesOptions()
                    .setTop(options.pageSize())
                    .setFilter(ODataFilter.of(query, options.rowFilter()));
            if (options.select() != null) {
                List<String> select = new ArrayList<>(List.of("PartitionKey", "RowKey"));
                options.select().stream().filter(s -> !select.contains(s)).forEach(select::add);
                list.setSelect(select);
            }
            PagedIterable<TableEntity> pages = client(table).listEntities(list, null, Context.NONE);
            PagedResponse<TableEntity> page = (from == null ? pages.iterableByPage()
                    : pages.iterableByPage(from.opaque())).iterator().next();
            List<Row> rows = page.getValue().stream().map(EdmCodec::read).toList();
            return new Page(rows, continuation(page.getContinuationToken()));
        });
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        // Azurite accepts batches that mix partitions; the service does not. Guard it here.
        if (rows.isEmpty() || rows.size() > 100 || rows.stream().anyMatch(r -> !r.partitionKey().equals(partitionKey))) {
            throw new TableStoreException("a batch holds 1 to 100 rows of one partition", 400, false, null);
        }
        call(table, () -> {
            TableClient client = client(table);
            if (rows.size() == 1) {
                client.upsertEntityWithResponse(EdmCodec.write(rows.get(0)), TableEntityUpdateMode.REPLACE, null,
                        Context.NONE);
            } else {
                List<TableTransactionAction> actions = rows.stream()
                        .map(r -> new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, EdmCodec.write(r)))
                        .toList();
                client.submitTransaction(actions);
            }
            return null;
        });
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        try {
            call(table, () -> { client(table).deleteEntity(partitionKey, rowKey); return null; });
            return true;
        } catch (TableStoreException e) {
            if (e.status() == 404) { // already gone: a replayed mirror deletes what it deleted before
                return false;
            }
            throw e;
        }
    }

    @Override
    public void createTableIfNotExists(String table) {
        call(table, () -> service.createTableIfNotExists(table));
    }

    @Override
    public boolean tableExists(String table) {
        try {
            query(table, KeyRange.ALL, new QueryOptions(1, List.of("PartitionKey"), null), null);
            return true;
        } catch (TableStoreException e) {
            if (e.status() == 404) {
                return false;
            }
            throw e;
        }
    }

    private TableClient client(String table) {
        return clients.computeIfAbsent(table, service::getTableClient);
    }

    /** Runs one request and restates its failure without URLs, keys or SAS tokens. */
    private static <T> T call(String table, Supplier<T> request) {
        try {
            return request.get();
        } catch (TableServiceException e) {
            String code = e.getValue() == null || e.getValue().getErrorCode() == null ? null : e.getValue().getErrorCode().toString();
            // A failed batch (TableTransactionFailedException) carries the error code but no response.
            int status = e.getResponse() != null ? e.getResponse().getStatusCode() : statusOf(code);
            throw new TableStoreException("HTTP " + status + (code == null ? "" : " " + code) + " on table " + table,
                    status, TableStoreException.isTransientStatus(status), null);
        } catch (ClientAuthenticationException e) {
            // No Entra ID credential found, or one that was refused: no retry helps.
            String reason = e.getMessage() == null ? "" : withoutQuery(e.getMessage().lines().findFirst().orElse(""));
            throw new TableStoreException("Entra ID sign-in failed on table " + table + ": " + reason, 401, false, null);
        } catch (HttpResponseException e) {
            int status = e.getResponse() == null ? 0 : e.getResponse().getStatusCode();
            throw new TableStoreException("HTTP " + status + " on table " + table, status,
                    TableStoreException.isTransientStatus(status), null);
        } catch (TableStoreException e) {
            throw e;
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            // Reached no service: connection refused, reset, timeout, DNS. Worth retrying.
            throw new TableStoreException("I/O error on table " + table + ": " + root.getClass().getSimpleName()
                    + (root.getMessage() == null ? "" : " " + withoutQuery(root.getMessage())), 0, true, null);
        }
    }

    /** Cuts a message at the first '?', so that a URL's query (a SAS token) is never repeated. */
    static String withoutQuery(String message) {
        int q = message.indexOf('?');
        String cut = q < 0 ? message : message.substring(0, q) + "?...";
        return cut.length() > 200 ? cut.substring(0, 200) + "..." : cut;
    }

    /** The HTTP status the service sends with an error code, for errors reported without a response. */
    static int statusOf(String code) {
        if (code == null) {
            return 400;
        }
        return switch (code) {
            case "TableNotFound", "ResourceNotFound" -> 404;
            case "ServerBusy" -> 503;
            case "OperationTimedOut", "InternalError" -> 500;
            case "AuthenticationFailed", "AuthorizationFailure", "AuthorizationPermissionMismatch" -> 403;
            case "EntityAlreadyExists", "TableAlreadyExists", "TableBeingDeleted" -> 409;
            default -> 400;
        };
    }

    /** The SDK joins the NextPartitionKey and NextRowKey headers with ';'. */
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
            return new String(Base64.getDecoder().decode(body.replace('-', '=')), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null; // an opaque form we cannot read: the scanner falls back to the rows it has seen
        }
    }
}
