package io.tablescan.cli;

import io.tablescan.backup.BackupStore;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where an export is read from, as import and verify take it: a folder, or a Blob container and its account. */
final class ExportSourceOptions {
    @Option(names = "--from", paramLabel = "DIR", description = "The folder of an export.")
    String folder;

    @Option(names = "--from-container", paramLabel = "NAME", description = "Or the Blob container of an export.")
    String container;

    @Option(names = "--from-prefix", paramLabel = "P", description = "The prefix of the export's blobs in the "
            + "container (default: none).")
    String prefix;

    @Option(names = "--from-connection-string", paramLabel = "CS", description = "Connection string of the "
            + "export container's storage account.")
    String connectionString;

    @Option(names = "--from-account", paramLabel = "ALIAS", description = "Or an account alias for the export's "
            + "container, as for --to-account of export.")
    String account;

    /** Whether an export is named at all (else verify compares two tables). */
    boolean given() {
        return folder != null || container != null;
    }

    /** The export's store; one line and exit 2 unless exactly one place, and for a container one account, is given. */
    BackupStore open(Map<String, String> env) {
        return BackupLocations.open(env, "from", folder, container, prefix, connectionString, account);
    }
}
