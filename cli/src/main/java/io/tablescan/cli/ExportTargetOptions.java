package io.tablescan.cli;

import io.tablescan.backup.BackupStore;
import io.tablescan.backup.FileFormat;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where an export is written, as export takes it: a folder, or a Blob container and its account. */
final class ExportTargetOptions {
    @Option(names = "--to", paramLabel = "DIR", description = "A local folder to export to (created if missing).")
    String folder;

    @Option(names = "--to-container", paramLabel = "NAME", description = "Or a Blob container to export to (created "
            + "if missing).")
    String container;

    @Option(names = "--to-prefix", paramLabel = "P", description = "A folder-like prefix in the container for the "
            + "export's blobs (default: none).")
    String prefix;

    @Option(names = "--to-connection-string", paramLabel = "CS", description = "Connection string of the container's "
            + "storage account (with a BlobEndpoint, or an AccountName).")
    String connectionString;

    @Option(names = "--to-account", paramLabel = "ALIAS", description = "Or an account alias: TABLESCAN_ACCOUNT_<ALIAS>_"
            + "CONNECTION_STRING, or _BLOB_ENDPOINT with _SAS_TOKEN, or _BLOB_ENDPOINT alone for Entra ID.")
    String account;

    /** The data files' format: set by a command that offers --format (backup sets are JSON lines). */
    FileFormat format = FileFormat.JSONL;

    /** The export's store; one line and exit 2 unless exactly one place, and for a container one account, is given. */
    BackupStore open(Map<String, String> env) {
        return BackupLocations.open(env, "to", folder, container, prefix, connectionString, account);
    }
}
