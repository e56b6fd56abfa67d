package io.tablescan.backup;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceVersion;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobDownloadContentResponse;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.tablescan.azure.AccountCredentials;
import io.tablescan.azure.ConnectionString;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An export in a Blob container, every file a block blob under an optional prefix. The SDK retries transient
 * failures itself (exponential backoff); what remains is turned into one line that names the blob, never the URL's
 * query (a SAS token would be in it).
 */
public final class BlobStore implements BackupStore {
    /** The account settings a Blob container is opened with, besides the table accounts' CONNECTION_STRING. */
    public static final String BLOB_ENDPOINT = "BLOB_ENDPOINT";
    /**
     * The Blob API version sent: one Azure accepts and so does Azurite 3.35 (the newest Azurite on Node 20), which
     * refuses versions newer than its own unless started with --skipApiVersionCheck; the SDK's default is newer.
     */
    public static final BlobServiceVersion SERVICE_VERSION = BlobServiceVersion.V2025_11_05;

    /** The block a streamed file is staged in: its memory, twice (two in flight). */
    private static final long BLOCK_BYTES = 4L * 1024 * 1024;

    private final BlobContainerClient container;
    private final String prefix;
    /** Whether the endpoint answered a connection (checked before the first request, see {@link #reachable}). */
    private volatile boolean reached;

    public BlobStore(BlobContainerClient container, String prefix) {
        this.container = container;
        this.prefix = prefix == null || prefix.isEmpty() ? "" : prefix.endsWith("/") ? prefix : prefix + "/";
    }

    /** A container of the account a connection string names (it needs a BlobEndpoint or an AccountName). */
    public static BlobStore fromConnectionString(String connectionString, String container, String prefix) {
        try {
            ConnectionString parsed = ConnectionString.forBlob(connectionString);
            BlobServiceClientBuilder builder = new BlobServiceClientBuilder().endpoint(parsed.endpoint())
                    .serviceVersion(SERVICE_VERSION);
            if (parsed.key() != null) {
                builder.credential(new StorageSharedKeyCredential(parsed.account(), parsed.keyBase64()));
            } else {
                builder.sasToken(parsed.sasToken());
            }
            return new BlobStore(builder.buildClient().getBlobContainerClient(container), prefix);
        } catch (IllegalArgumentException e) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, "the Blob connection string is not valid");
        }
    }

    /**
     * A container of the account an alias names, from {@code setting} (the TABLESCAN_ACCOUNT_&lt;ALIAS&gt;_* value of
     * a name): a connection string; a Blob endpoint with a SAS token; a Blob endpoint alone for Entra ID. Null when
     * none is set.
     */
    public static BlobStore fromSettings(Function<String, String> setting, String container, String prefix) {
        AccountCredentials.Credential credential = AccountCredentials.resolve(setting, BLOB_ENDPOINT);
        if (credential == null) {
            return null;
        }
        if (credential instanceof AccountCredentials.WithConnectionString c) {
            return fromConnectionString(c.connectionString(), container, prefix);
        }
        try {
            BlobServiceClientBuilder builder = new BlobServiceClientBuilder().serviceVersion(SERVICE_VERSION);
            if (credential instanceof AccountCredentials.WithSasToken s) {
                builder.endpoint(s.endpoint()).sasToken(s.sasToken());
            } else if (credential instanceof AccountCredentials.WithEntraId e) {
                builder.endpoint(e.endpoint()).credential(e.tokenCredential());
            }
            return new BlobStore(builder.buildClient().getBlobContainerClient(container), prefix);
        } catch (IllegalArgumentException e) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, "the Blob endpoint is not a valid URL");
        }
    }

    @Override
    public void prepare() {
        call("the container", () -> container.createIfNotExists());
    }

    /** Whether the container exists (a place to read sets from must; one to write to is created). */
    public boolean containerExists() {
        return call("the container", () -> found(container::getProperties));
    }

    @Override
    public boolean exists(String name) {
        return call(name, () -> found(container.getBlobClient(prefix + name)::getProperties));
    }

    /**
     * Whether {@code properties} finds its container or blob: not when the Blob service answers 404 with its error
     * code (ContainerNotFound, BlobNotFound). A 404 without one came from something else at the endpoint (a wrong
     * path in it, a proxy) and fails (see {@link #call}): the SDK's own exists() takes any 404 for "not there".
     */
    private static boolean found(Supplier<?> properties) {
        try {
            properties.get();
            return true;
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 404 && e.getErrorCode() != null) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public void write(String name, byte[] data) {
        call(name, () -> {
            container.getBlobClient(prefix + name).upload(BinaryData.fromBytes(data), true); // one blob, replaced
            return null;
        });
    }

    /**
     * Blocks of 4 MiB staged as they fill, two uploads at a time, and the block list committed when closed: until
     * then the blob keeps its old content (or does not exist), and uncommitted blocks are dropped by the service.
     */
    @Override
    public java.io.OutputStream open(String name) {
        var stream = call(name, () -> container.getBlobClient(prefix + name).getBlockBlobClient().getBlobOutputStream(
                new com.azure.storage.blob.models.ParallelTransferOptions().setBlockSizeLong(BLOCK_BYTES)
                        .setMaxConcurrency(2), null, null, null, null));
        return new java.io.FilterOutputStream(stream) {
            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                guard(() -> out.write(b, off, len));
            }

            @Override
            public void close() throws java.io.IOException {
                guard(out::close);
            }

            private void guard(IoStep step) throws java.io.IOException {
                try {
                    call(name, () -> {
                        try {
                            step.run();
                        } catch (java.io.IOException e) {
                            throw e.getCause() instanceof RuntimeException r ? r : new UncheckedIOException(e);
                        }
                        return null;
                    });
                } catch (BackupException e) {
                    throw new java.io.IOException(e.getMessage(), e);
                }
            }
        };
    }

    private interface IoStep {
        void run() throws java.io.IOException;
    }

    /** A Put Blob with If-None-Match: *, which the service refuses (409) when the blob exists. */
    @Override
    public boolean create(String name, byte[] data) {
        return call(name, () -> {
            try {
                container.getBlobClient(prefix + name).uploadWithResponse(new BlobParallelUploadOptions(
                        BinaryData.fromBytes(data)).setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
                        null, Context.NONE);
                return true;
            } catch (BlobStorageException e) {
                if (e.getStatusCode() == 409 || e.getStatusCode() == 412) { // BlobAlreadyExists, ConditionNotMet
                    return false;
                }
                throw e;
            }
        });
    }

    @Override
    public void delete(String name) {
        call(name, () -> container.getBlobClient(prefix + name).deleteIfExists());
    }

    /** A read, then a Delete Blob with If-Match on the ETag read: a blob written since is left alone (412). */
    @Override
    public boolean deleteIfSame(String name, byte[] data) {
        return call(name, () -> {
            var blob = container.getBlobClient(prefix + name);
            try {
                BlobDownloadContentResponse read = blob.downloadContentWithResponse(null, null, null, Context.NONE);
                if (!Arrays.equals(read.getValue().toBytes(), data)) {
                    return false;
                }
                blob.deleteWithResponse(null, new BlobRequestConditions().setIfMatch(read.getDeserializedHeaders()
                        .getETag()), null, Context.NONE);
                return true;
            } catch (BlobStorageException e) {
                if (e.getStatusCode() == 404 || e.getStatusCode() == 412) { // gone, or written since it was read
                    return false;
                }
                throw e;
            }
        });
    }

    @Override
    public byte[] read(String name) {
        return call(name, () -> container.getBlobClient(prefix + name).downloadContent().toBytes());
    }

    @Override
    public BackupStore at(String name) {
        return new BlobStore(container, prefix + name);
    }

    @Override
    public BackupStore parent() {
        if (prefix.isEmpty()) {
            return null;
        }
        String up = prefix.substring(0, prefix.length() - 1);
        return new BlobStore(container, up.contains("/") ? up.substring(0, up.lastIndexOf('/') + 1) : "");
    }

    @Override
    public String leaf() {
        if (prefix.isEmpty()) {
            return null;
        }
        String up = prefix.substring(0, prefix.length() - 1);
        return up.substring(up.lastIndexOf('/') + 1);
    }

    /** One List Blobs by hierarchy under the prefix ("/" the delimiter); a missing container is empty. */
    @Override
    public java.util.List<String> list() {
        return call("the container", () -> {
            if (!found(container::getProperties)) {
                return java.util.List.<String>of();
            }
            var options = new com.azure.storage.blob.models.ListBlobsOptions().setPrefix(prefix.isEmpty() ? null : prefix);
            java.util.List<String> names = new java.util.ArrayList<>();
            container.listBlobsByHierarchy("/", options, null)
                    .forEach(item -> names.add(item.getName().substring(prefix.length())));
            names.sort(null);
            return names;
        });
    }

    @Override
    public String describe() {
        return "container " + container.getBlobContainerName() + (prefix.isEmpty() ? "" : " under " + prefix);
    }

    @Override
    public String describe(String name) {
        return "the blob " + prefix + name + " of container " + container.getBlobContainerName();
    }

    /**
     * A refusal of the x-ms-version header: Azurite names the API version in its message, Azure the header; a HEAD
     * request has no body to tell, and every other header we send is one the SDK formats.
     */
    private static boolean refusedVersion(BlobStorageException e) {
        String message = String.valueOf(e.getServiceMessage()) + e.getMessage();
        return "InvalidHeaderValue".equals(String.valueOf(e.getErrorCode())) && (message.contains("API version")
                || message.contains("x-ms-version") || e.getResponse().getRequest().getHttpMethod().name().equals("HEAD"));
    }

    private static String sentVersion(BlobStorageException e) {
        String sent = e.getResponse().getRequest().getHeaders().getValue(HttpHeaderName.fromString("x-ms-version"));
        return sent == null ? SERVICE_VERSION.getVersion() : sent;
    }

    /**
     * Fails in seconds, naming the endpoint, when nothing answers there: the SDK's own retries of a connection that
     * cannot be made took 53 s of silence. Skipped behind a proxy, which the SDK reaches instead of the endpoint.
     */
    private void reachable() {
        if (reached || System.getenv("HTTPS_PROXY") != null || System.getenv("https_proxy") != null
                || System.getenv("HTTP_PROXY") != null || System.getenv("http_proxy") != null) {
            return;
        }
        java.net.URI uri = java.net.URI.create(container.getBlobContainerUrl());
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        String endpoint = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() == -1 ? "" : ":" + port);
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(uri.getHost(), port), (int) CONNECT_TIMEOUT_MILLIS);
            reached = true;
        } catch (java.io.IOException e) {
            throw new BackupException(BackupException.Kind.UNREACHABLE, "Blob storage is unreachable at " + endpoint
                    + " (" + describe() + "): " + why(e) + "; tried to connect to " + uri.getHost() + ":" + port
                    + " for up to " + CONNECT_TIMEOUT_MILLIS / 1000 + " s");
        }
    }

    private static final long CONNECT_TIMEOUT_MILLIS = 5_000;

    /** The account's Blob endpoint, scheme to path, without the container or a query (no SAS). */
    private String endpoint() {
        java.net.URI uri = java.net.URI.create(container.getBlobContainerUrl());
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        int container = path.lastIndexOf('/');
        return uri.getScheme() + "://" + uri.getRawAuthority() + (container > 0 ? path.substring(0, container) : "");
    }

    /** A failed connection in words, never a URL's query. */
    private static String why(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return "the connection was refused (nothing listens there)";
            }
            if (t instanceof java.net.UnknownHostException) {
                return "unknown host";
            }
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return "no answer (timed out)";
            }
        }
        return "the connection failed";
    }

    private <T> T call(String what, Supplier<T> request) {
        reachable();
        try {
            return request.get();
        } catch (BlobStorageException e) {
            int status = e.getStatusCode();
            if (status == 404 && e.getErrorCode() == null) { // not the Blob service's: it names what is missing
                throw new BackupException(BackupException.Kind.UNREACHABLE, "the Blob endpoint " + endpoint()
                        + " answered HTTP 404 without a Blob service error code for " + describe()
                        + ": check the endpoint URL (a wrong path, or a proxy, answers so)");
            }
            BackupException.Kind kind = status == 404 ? BackupException.Kind.NOT_FOUND
                    : status == 401 || status == 403 ? BackupException.Kind.DENIED : BackupException.Kind.FAILED;
            String where = what.equals("the container") ? describe() : prefix + what + " in " + describe();
            throw new BackupException(kind, (status == 404 ? where + " is missing" : "Blob storage refused " + where)
                    + " (HTTP " + status + (e.getErrorCode() == null ? "" : " " + e.getErrorCode()) + ")"
                    + (refusedVersion(e) ? ": the Blob endpoint does not accept API version " + sentVersion(e)
                    + "; use Azurite 3.35 or later (or start it with --skipApiVersionCheck), or a Blob endpoint of"
                    + " Azure Storage" : ""));
        } catch (UncheckedIOException | com.azure.core.exception.AzureException e) {
            throw new BackupException(BackupException.Kind.UNREACHABLE, "Blob storage is unreachable for "
                    + describe() + ": " + why(e) + " (after the Blob client's retries)");
        } catch (RuntimeException e) {
            if (e.getCause() instanceof java.io.IOException || e.getCause() instanceof java.net.ConnectException) {
                throw new BackupException(BackupException.Kind.UNREACHABLE, "Blob storage is unreachable for "
                        + describe() + ": " + why(e) + " (after the Blob client's retries)");
            }
            throw e;
        }
    }
}
