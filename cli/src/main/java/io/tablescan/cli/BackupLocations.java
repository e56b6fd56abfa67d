package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.BlobStore;
import io.tablescan.backup.FolderStore;
import io.tablescan.table.Accounts;
import java.nio.file.Path;
import java.util.Map;

/** Where export writes and import reads: a folder, or a Blob container by connection string or account alias. */
final class BackupLocations {
    private BackupLocations() {}

    /**
     * The store the options name; {@code side} is "to" (export) or "from" (import), the options' prefix. One line
     * and exit 2 unless exactly one place, and for a container exactly one account, is given.
     */
    static BackupStore open(Map<String, String> env, String side, String folder, String container, String prefix,
            String connectionString, String alias) {
        String folderOption = "--" + side;
        String containerOption = "--" + side + "-container";
        if ((folder == null) == (container == null)) {
            throw new UserError(UserError.USAGE, "give one of " + folderOption + " DIR and " + containerOption + " NAME");
        }
        if (folder != null) {
            if (prefix != null || connectionString != null || alias != null) {
                throw new UserError(UserError.USAGE, "--" + side + "-prefix, --" + side + "-connection-string and --"
                        + side + "-account go with " + containerOption + ", not " + folderOption);
            }
            if (side.equals("from") && !java.nio.file.Files.isDirectory(Path.of(folder))) { // read, never created
                throw new UserError(UserError.NOT_FOUND, folderOption + ": no folder " + folder);
            }
            return new FolderStore(Path.of(folder));
        }
        if (!container.matches("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]")) {
            throw new UserError(UserError.USAGE, containerOption + " must be a container name: 3 to 63 lower-case "
                    + "letters, digits and single '-', starting and ending with a letter or digit");
        }
        if ((connectionString == null) == (alias == null)) {
            throw new UserError(UserError.USAGE, "give one of --" + side + "-connection-string and --" + side
                    + "-account with " + containerOption);
        }
        try {
            if (connectionString != null) {
                return BlobStore.fromConnectionString(connectionString, container, prefix);
            }
            String checked = Checks.accountAlias("--" + side + "-account", alias);
            BlobStore store = BlobStore.fromSettings(setting -> {
                String value = env.get(Accounts.variable(checked, setting));
                return value == null || value.isBlank() ? null : value;
            }, container, prefix);
            if (store == null) {
                throw new UserError(UserError.USAGE, "unknown account alias '" + checked + "' for Blob storage: set "
                        + Accounts.variable(checked) + ", or " + Accounts.variable(checked, BlobStore.BLOB_ENDPOINT)
                        + " with " + Accounts.variable(checked, Accounts.SAS_TOKEN) + " (or alone for Entra ID)");
            }
            return store;
        } catch (BackupException e) {
            throw error(e);
        }
    }

    /** The command's line and exit code for a backup failure. */
    static UserError error(BackupException e) {
        int code = switch (e.kind()) {
            case BAD_INPUT, IN_USE -> UserError.USAGE;
            case NOT_FOUND -> UserError.NOT_FOUND;
            case DENIED -> UserError.DENIED;
            case UNREACHABLE -> UserError.UNREACHABLE;
            case CORRUPT, FAILED -> UserError.FAILED;
        };
        return new UserError(code, e.getMessage());
    }
}
