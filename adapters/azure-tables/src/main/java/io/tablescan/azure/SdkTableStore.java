package io.tablescan.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.rest.PagedIterable;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The tables of one account through the Azure SDK, one request per call: only for a store built from a client
 * builder the caller configured ({@link AzureTableStore#build}); tablescan's own accounts go through
 * {@link RestTableStore}.
 */
final class SdkTableStore implements TableStore {
    private final TableServiceClient service;
    private final Map<String, TableClient> clients = new ConcurrentHashMap<>();

    SdkTableStore(TableServiceClient service) {
        this.service = service;
    }

    /** The client's endpoint (the account's table endpoint). */
    String endpoint() {
        return service.getServiceEndpoint();
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
            return new Page(rows, AzureTableStore.continuation(page.getContinuationToken()));
        });
    }

    @Override
    public void upsert(String table, String partitionKey, List<Row> rows) {
        checkRows(partitionKey, rows);
        call(table, () -> {
            TableClient client = client(table);
            if (rows.size() == 1) {
                client.upsertEntityWithResponse(EdmCodec.write(rows.get(0)), TableEntityUpdateMode.REPLACE, null,
                        Context.NONE);
            } else {
                client.submitTransaction(actions(rows, TableTransactionActionType.UPSERT_REPLACE));
            }
            return null;
        });
    }

    @Override
    public void merge(String table, String partitionKey, List<Row> rows) {
        checkRows(partitionKey, rows);
        call(table, () -> client(table).submitTransaction(actions(rows, TableTransactionActionType.UPSERT_MERGE)));
    }

    /** Inserts (CREATE) the rows without ETag, replaces (UPDATE_REPLACE, if unchanged) the others. */
    @Override
    public Refusal writeIfUnchanged(String table, String partitionKey, List<Row> rows, List<String> etags) {
        checkRows(partitionKey, rows);
        List<TableTransactionAction> actions = new java.util.ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            TableEntity entity = EdmCodec.write(rows.get(i));
            String etag = etags.get(i);
            actions.add(etag == null ? new TableTransactionAction(TableTransactionActionType.CREATE, entity)
                    : new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE,
                            entity.addProperty("odata.etag", etag), true));
        }
        try {
            call(table, () -> client(table).submitTransaction(actions));
            return null;
        } catch (TableStoreException e) {
            String message = e.getMessage();
            boolean refusable = e.status() == 409 || e.status() == 412
                    || e.status() == 404 && !message.contains("TableNotFound");
            if (refusable && e.getCause() instanceof TableTransactionFailedException failed
                    && failed.getFailedTransactionActionIndex() != null) {
                return new Refusal(failed.getFailedTransactionActionIndex(), e.status() == 404);
            }
            throw e;
        }
    }

    private static List<TableTransactionAction> actions(List<Row> rows, TableTransactionActionType type) {
        return rows.stream().map(r -> new TableTransactionAction(type, EdmCodec.write(r))).toList();
    }

    /** Azurite accepts batches that mix partitions; the service does not. Guard it here. */
    private static void checkRows(String partitionKey, List<Row> rows) {
        if (rows.isEmpty() || rows.size() > 100 || rows.stream().anyMatch(r -> !r.partitionKey().equals(partitionKey))) {
            throw new TableStoreException("a batch holds 1 to 100 rows of one partition", 400, false, null);
        }
    }

    @Override
    public Row read(String table, String partitionKey, String rowKey) {
        try {
            return call(table, () -> EdmCodec.read(client(table).getEntity(partitionKey, rowKey)));
        } catch (TableStoreException e) {
            if (AzureTableStore.notFound(e) && !e.getMessage().contains("TableNotFound")) {
                return null; // the row is gone; a missing table is a failure
            }
            throw e;
        }
    }

    @Override
    public boolean delete(String table, String partitionKey, String rowKey) {
        // False when already gone: a replayed mirror deletes what it deleted before.
        return AzureTableStore.unlessNotFound(
                () -> call(table, () -> { client(table).deleteEntity(partitionKey, rowKey); return null; }));
    }

    @Override
    public Refusal deleteIfUnchanged(String table, String partitionKey, List<Version> rows) {
        RestTableStore.checkBatch(rows.size());
        List<TableTransactionAction> actions = rows.stream().map(v -> new TableTransactionAction(
                TableTransactionActionType.DELETE, v.etag() == null ? new TableEntity(partitionKey, v.rowKey())
                        : new TableEntity(partitionKey, v.rowKey()).addProperty("odata.etag", v.etag()),
                v.etag() != null)).toList();
        try {
            call(table, () -> client(table).submitTransaction(actions));
            return null;
        } catch (TableStoreException e) {
            if (e.getCause() instanceof TableTransactionFailedException failed
                    && failed.getFailedTransactionActionIndex() != null && (e.status() == 404 || e.status() == 412)) {
                return new Refusal(failed.getFailedTransactionActionIndex(), e.status() == 404);
            }
            throw e;
        }
    }

    @Override
    public void createTableIfNotExists(String table) {
        call(table, () -> service.createTableIfNotExists(table));
    }

    @Override
    public List<String> listTables() {
        return call("(the list of tables)", () -> service.listTables().stream()
                .map(com.azure.data.tables.models.TableItem::getName).toList());
    }

    @Override
    public boolean tableExists(String table) {
        return AzureTableStore.unlessNotFound(
                () -> query(table, KeyRange.ALL, new QueryOptions(1, List.of("PartitionKey"), null), null));
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
                    status, TableStoreException.isTransientStatus(status),
                    e instanceof TableTransactionFailedException ? e : null); // its index, for a delete
        } catch (ClientAuthenticationException e) {
            // No Entra ID credential found, or one that was refused: no retry helps.
            String reason = e.getMessage() == null ? "" : AzureTableStore.withoutQuery(e.getMessage().lines().findFirst().orElse(""));
            throw new TableStoreException("Entra ID sign-in failed on table " + table + ": " + reason, 401, false, null);
        } catch (HttpResponseException e) {
            int status = e.getResponse() == null ? 0 : e.getResponse().getStatusCode();
            throw new TableStoreException("HTTP " + status + " on table " + table, status,
                    TableStoreException.isTransientStatus(status), null);
        } catch (TableStoreException e) {
            throw e;
        } catch (RuntimeException e) {
            throw AzureTableStore.ioError(table, e); // reached no service: refused, reset, timeout, DNS
        }
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
            case "UpdateConditionNotSatisfied", "ConditionNotMet" -> 412;
            case "EntityAlreadyExists", "TableAlreadyExists", "TableBeingDeleted" -> 409;
            default -> 400;
        };
    }
}
